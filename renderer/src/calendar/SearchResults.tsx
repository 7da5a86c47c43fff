/**
 * Search across the whole calendar, as Google Calendar's and Thunderbird's searches do: every
 * match, past and future, from every page of the API, listed by date. Choosing one goes to its
 * day. The sidebar filters still apply; the visible month does not.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDay, formatInstant, shownDay } from '../lib/format';
import { midnightOf } from '../lib/dates';
import type { Event } from '@shared/api/records';
import { nothingShown, PAGE_SIZE, rangeQuery, type EventFilters } from '../api/client';
import { useLocale } from '../state/calendarSettings';
import { newestOnly } from '../lib/newestOnly';
import { api } from '../state/api';
import { useCalendar } from '../state/calendar';
import { useFilters } from '../state/filters';
import { useSettings } from '../state/settings';
import { useUi } from '../state/ui';
import { colourFor, decodeEntities, useEventColours } from './toEventInput';
import { EventMarks } from './EventMarks';
import './search.css';

/** Matches fetched at most: enough for any real search, bounded so no query can stall the page. */
export const MAX_RESULTS = 1000;
/** Every date the editor saves, as midnights on the calendar's clock (asked when searching: the zone may change). */
const wholeCalendar = () => ({ start: midnightOf('1900-01-01'), end: midnightOf('2200-12-31') });

const begin = newestOnly();

/** Every match of `filters` at any date, oldest first, up to MAX_RESULTS; and how many there are. */
export async function searchEverything(filters: EventFilters): Promise<{ events: Event[]; total: number }> {
  if (nothingShown(filters)) return { events: [], total: 0 };
  const query = { ...rangeQuery(wholeCalendar(), filters), per_page: PAGE_SIZE };
  const first = await api().get<{ events?: Event[]; total?: number; total_pages?: number }>('events', { ...query, page: 1 });
  const total = Number(first.total ?? first.events?.length ?? 0);
  const pages = Math.min(Number(first.total_pages ?? 1), Math.ceil(MAX_RESULTS / PAGE_SIZE));
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, i) => api().get<{ events?: Event[] }>('events', { ...query, page: i + 2 }).then((r) => r.events ?? [])),
  );
  return { events: [...(first.events ?? []), ...rest.flat()], total };
}

/** The day an event starts on, on the calendar's clock (all-day events keep their own dates). */
function dayOf(e: Event): string {
  if (e.all_day) return e.start_date.slice(0, 10);
  return shownDay(e.utc_start_date);
}

export function SearchResults() {
  const { t } = useTranslation();
  const filters = useFilters();
  const language = useSettings((s) => s.contentLanguage);
  const locale = useLocale();
  useEventColours();
  const [found, setFound] = useState<{ events: Event[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = JSON.stringify([filters.search, filters.categories, filters.tags, filters.venues, filters.organizers, filters.featured, filters.calendars, language]);

  useEffect(() => {
    const isNewest = begin();
    setFound(null);
    setError(null);
    searchEverything(useFilters.getState())
      .then((r) => isNewest() && setFound(r))
      .catch((e: Error) => isNewest() && setError(e.message));
  }, [key]);

  const days = useMemo(() => {
    const byDay = new Map<string, Event[]>();
    for (const e of found?.events ?? []) {
      const d = dayOf(e);
      const list = byDay.get(d);
      if (list) list.push(e);
      else byDay.set(d, [e]);
    }
    return [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [found]);

  const go = (e: Event) => {
    // Out of the search, onto the day, with the event's card open there.
    useFilters.getState().setSearch('');
    useCalendar.getState().openDay(dayOf(e));
    useUi.getState().openDetails(e);
  };
  const time = (e: Event) =>
    e.all_day ? t('field.all_day') : formatInstant(e.utc_start_date, locale);

  return (
    <section className="search-results" aria-label={t('search.results', { query: filters.search })}>
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      {!found && !error && (
        <p className="loading" role="status">
          {t('toolbar.loading')}
        </p>
      )}
      {found && (
        <p className="search-count" role="status">
          {found.total > found.events.length
            ? t('search.count_capped', { count: found.total, shown: found.events.length })
            : t('search.count', { count: found.total, query: filters.search })}
        </p>
      )}
      {days.map(([day, list]) => (
        <section key={day} className="search-day" aria-labelledby={`search-day-${day}`}>
          <h3 id={`search-day-${day}`} className="search-day-title">
            {formatDay(day, locale)}
          </h3>
          <ul className="search-list">
            {list.map((e) => (
              <li key={e.id}>
                <button type="button" className="search-item" data-event-id={e.id} onClick={() => go(e)}>
                  <span className="search-title">
                    <span className="ev-dot" style={{ background: colourFor(e) ?? 'var(--accent)' }} aria-hidden="true" />
                    {decodeEntities(e.title)}
                    <EventMarks event={e} />
                  </span>
                  <span className="search-time">{time(e)}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
