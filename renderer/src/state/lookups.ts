/**
 * Categories, tags, venues and organizers of the current records language: the choices of the
 * filters and of the editor's pickers. Reloaded when the language changes or a screen edits them.
 */
import { create } from 'zustand';
import type { Organizer, Term, Venue } from '@shared/api/records';
import { api } from './api';
import { newestOnly } from '../lib/newestOnly';

export type LookupKind = 'categories' | 'tags' | 'venues' | 'organizers';

interface LookupsState {
  categories: Term[];
  tags: Term[];
  venues: Venue[];
  organizers: Organizer[];
  loaded: boolean;
  loadAll(): Promise<void>;
  reload(kind: LookupKind): Promise<void>;
}

async function fetchKind(kind: LookupKind): Promise<Term[] | Venue[] | Organizer[]> {
  const c = api();
  switch (kind) {
    case 'categories':
    case 'tags':
      return c.listTerms(kind);
    case 'venues':
      return c.listVenues();
    case 'organizers':
      return c.listOrganizers();
  }
}

const byName = <T>(name: (x: T) => string) => (a: T, b: T) => name(a).localeCompare(name(b), undefined, { sensitivity: 'base' });

function sorted(kind: LookupKind, list: unknown[]): unknown[] {
  if (kind === 'venues') return [...(list as Venue[])].sort(byName((v) => v.venue ?? ''));
  if (kind === 'organizers') return [...(list as Organizer[])].sort(byName((o) => o.organizer ?? ''));
  return list;
}

/**
 * The newest request per kind: answers can come back out of order (a venue created, then another
 * trashed at once), and an older list arriving last would bring back what was just changed.
 */
const begin: Record<LookupKind, () => () => boolean> = { categories: newestOnly(), tags: newestOnly(), venues: newestOnly(), organizers: newestOnly() };

export const useLookups = create<LookupsState>()((set) => ({
  categories: [],
  tags: [],
  venues: [],
  organizers: [],
  loaded: false,
  async loadAll() {
    const kinds: LookupKind[] = ['categories', 'tags', 'venues', 'organizers'];
    const isNewest = kinds.map((k) => begin[k]());
    const results = await Promise.allSettled(kinds.map(fetchKind));
    // Only the kinds no newer request has asked for since: the others are answered by that one.
    const current = results.map((r, i) => ({ r, kind: kinds[i] })).filter((_, i) => isNewest[i]());
    if (current.length === 0) return;
    const next: Partial<LookupsState> = { loaded: true };
    for (const { r, kind } of current) if (r.status === 'fulfilled') (next as Record<string, unknown>)[kind] = sorted(kind, r.value);
    set(next);
    const failed = current.find(({ r }) => r.status === 'rejected');
    if (failed) throw (failed.r as PromiseRejectedResult).reason;
  },
  async reload(kind) {
    const isNewest = begin[kind]();
    const list = await fetchKind(kind);
    if (isNewest()) set({ [kind]: sorted(kind, list) } as Partial<LookupsState>);
  },
}));
