/** The calendar's filters, in the shape of the API's event list parameters. */
import { create } from 'zustand';
import { emptyFilters, type EventFilters } from '../api/client';

type ListKey = 'categories' | 'tags' | 'venues' | 'organizers';

interface FiltersState extends EventFilters {
  toggle(key: ListKey, id: number): void;
  setFeatured(on: boolean): void;
  setSearch(text: string): void;
  clear(): void;
  /** Drops ids that no longer exist (deleted terms, another language's records). */
  prune(known: Record<ListKey, Set<number>>): void;
}

export const useFilters = create<FiltersState>()((set, get) => ({
  ...emptyFilters(),
  toggle(key, id) {
    const cur = get()[key];
    set({ [key]: cur.includes(id) ? cur.filter((x) => x !== id) : [...cur, id] } as Partial<FiltersState>);
  },
  setFeatured: (featured) => set({ featured }),
  setSearch: (search) => set({ search }),
  // Hidden calendars are not a filter the user set here: they stay hidden.
  clear: () => set({ ...emptyFilters(), calendars: get().calendars }),
  prune(known) {
    const next: Partial<FiltersState> = {};
    for (const key of ['categories', 'tags', 'venues', 'organizers'] as ListKey[]) {
      const kept = get()[key].filter((id) => known[key].has(id));
      if (kept.length !== get()[key].length) next[key] = kept;
    }
    if (Object.keys(next).length) set(next);
  },
}));

export function filtersOf(s: EventFilters): EventFilters {
  return {
    categories: s.categories,
    tags: s.tags,
    venues: s.venues,
    organizers: s.organizers,
    featured: s.featured,
    search: s.search,
    calendars: s.calendars,
  };
}

export function activeFilterCount(s: EventFilters): number {
  return s.categories.length + s.tags.length + s.venues.length + s.organizers.length + (s.featured ? 1 : 0) + (s.search.trim() ? 1 : 0);
}
