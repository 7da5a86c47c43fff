/**
 * The events of the visible range, with a small cache of recent ranges so going back and forth is
 * instant (the cached copy shows at once and is refreshed quietly). Writes patch the current list
 * straight away and drop the other cached ranges, which may hold stale copies.
 */
import { create } from 'zustand';
import type { Event } from '@shared/api/records';
import { isAbort, type EventFilters, type Range } from '../api/client';
import { api } from './api';
import { newestOnly } from '../lib/newestOnly';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

interface Query {
  range: Range;
  filters: EventFilters;
  language: string;
}

interface EventsState {
  events: Event[];
  status: LoadStatus;
  /** True while a fetch runs, also when a cached copy is already on screen. */
  fetching: boolean;
  error: string | null;
  /** HTTP status of the last failure (401: the session ended). */
  errorStatus: number;
  query: Query | null;
  /** performance.now() when the last list arrived (the 200 ms budget starts here). */
  receivedAt: number;
  load(q: Query): Promise<void>;
  refresh(): Promise<void>;
  /** Forgets every cached range and fetches the one on screen again: the data changed under it. */
  reload(): Promise<void>;
  upsert(e: Event): void;
  remove(id: number): void;
  invalidate(): void;
}

const CACHE_LIMIT = 12;
const cache = new Map<string, Event[]>();
let controller: AbortController | null = null;
const begin = newestOnly();

export const queryKey = (q: Query) =>
  JSON.stringify([q.range.start.getTime(), q.range.end.getTime(), q.filters, q.language]);

function remember(key: string, events: Event[]) {
  cache.delete(key);
  cache.set(key, events);
  while (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
}

export const useEvents = create<EventsState>()((set, get) => ({
  events: [],
  status: 'idle',
  fetching: false,
  error: null,
  errorStatus: 0,
  query: null,
  receivedAt: 0,

  async load(q) {
    const key = queryKey(q);
    const isNewest = begin();
    controller?.abort();
    controller = new AbortController();
    const cached = cache.get(key);
    set({
      query: q,
      fetching: true,
      error: null,
      ...(cached ? { events: cached, status: 'ready' as const } : { status: 'loading' as const }),
    });
    try {
      const events = await api().fetchEventsInRange(q.range, q.filters, controller.signal);
      if (!isNewest()) return;
      remember(key, events);
      // Marks let a trace measure the work from here to the drawn calendar (e2e performance check).
      performance.mark?.('almanac:events-received');
      set({ events, status: 'ready', fetching: false, receivedAt: performance.now() });
    } catch (e) {
      if (!isNewest() || isAbort(e)) return;
      set({ status: cached ? 'ready' : 'error', fetching: false, error: (e as Error).message, errorStatus: (e as { status?: number }).status ?? 0 });
      throw e;
    }
  },

  async refresh() {
    const q = get().query;
    if (q) await get().load(q);
  },

  reload() {
    get().invalidate();
    return get().refresh();
  },

  upsert(e) {
    const list = get().events;
    const i = list.findIndex((x) => x.id === e.id);
    const events = i === -1 ? [...list, e] : list.map((x) => (x.id === e.id ? e : x));
    get().invalidate();
    const q = get().query;
    if (q) remember(queryKey(q), events);
    set({ events });
  },

  remove(id) {
    const events = get().events.filter((x) => x.id !== id);
    get().invalidate();
    const q = get().query;
    if (q) remember(queryKey(q), events);
    set({ events });
  },

  invalidate() {
    cache.clear();
  },
}));

/**
 * After something changed the events under the lists (a sync round, an account or a site gone): the
 * range on screen fetched again. A failed fetch is already shown by the views, not thrown here.
 */
export const reloadEvents = (): Promise<void> => useEvents.getState().reload().catch(() => {});

/** An event on screen by its id (as DOM data attributes and FullCalendar hold it). */
export function eventById(id: string | number | undefined): Event | undefined {
  const n = Number(id);
  return useEvents.getState().events.find((e) => e.id === n);
}
