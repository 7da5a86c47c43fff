/**
 * Crowded months for the month-view speed target (issue #4: 2,000 events in range, drawn and
 * interactive within 200 ms of the data's arrival), shared by `bench/month-render.ts` and the e2e
 * test: the synthetic months, the route that serves them in place of the events API, and the
 * readings of the app's own timing marks.
 */
import type { Page } from 'playwright-core';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const CROWDED_TOTAL = 2000;

const utc = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
const BYDAY = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/**
 * Half of a crowded month are occurrences of weekly series (issue #14: the month view with
 * repeating events still draws within the target): each series meets once a week at the same
 * time over the grid's six weeks, and carries the fields the API gives an occurrence, so every one
 * is drawn with its repeat mark.
 */
export const CROWDED_SERIES_SHARE = 0.5;
const GRID_WEEKS = 6;

/**
 * `total` timed 45-minute events spread over the 42 days of a month grid starting at `gridStart`
 * (epoch ms of the grid's first local midnight), between 08:00 and 18:00, copied from `template`
 * (a real record, so every field the app reads is there). One in fifty is featured; the first
 * `CROWDED_SERIES_SHARE` of them are weekly series' occurrences.
 */
export function crowdedMonth(template: Json, gridStart: number, idBase: number, total = CROWDED_TOTAL): Json[] {
  const inSeries = Math.floor(total * CROWDED_SERIES_SHARE);
  return Array.from({ length: total }, (_, i) => {
    const series = i < inSeries ? Math.floor(i / GRID_WEEKS) : undefined;
    // A series: its weekday and time, a week further for each occurrence; else spread as before.
    const day = series === undefined ? i % 42 : (series % 7) + 7 * (i % GRID_WEEKS);
    const minutes = 8 * 60 + (((series ?? i) * 37) % (10 * 60));
    const start = new Date(gridStart + day * 86_400_000 + minutes * 60_000);
    const end = new Date(start.getTime() + 45 * 60_000);
    const event: Json = {
      ...template,
      id: idBase + i,
      title: series === undefined ? `Load ${i}` : `Load ${total + series} weekly`,
      all_day: false,
      featured: i % 50 === 0,
      sticky: false,
      utc_start_date: utc(start),
      utc_end_date: utc(end),
      start_date: utc(start),
      end_date: utc(end),
      timezone: 'UTC',
    };
    if (series !== undefined) {
      // The series' first event is the grid's first week's occurrence.
      Object.assign(event, {
        recurrence: { rules: [`FREQ=WEEKLY;BYDAY=${BYDAY[start.getUTCDay()]}`], rdates: [], exdates: [] },
        series_id: idBase + i - (i % GRID_WEEKS),
        recurrence_id: utc(start),
        is_exception: false,
      });
    }
    return event;
  });
}

export interface CrowdedRoute {
  /** The events-list URLs served with a crowded month since the last reset (`seen.length = 0`). */
  seen: URL[];
  stop(): Promise<void>;
}

export const EVENTS_LIST = /\/cal\/events\/v1\/events\?/;

/**
 * Serves every events list whose range reaches `from` (`YYYY-MM`) or later with a crowded month,
 * paged as the API pages. Other lists go to the real server.
 *
 * @param utcOffsetHours how far the browser's zone is behind UTC (São Paulo: 3), to place the
 * events from the grid's local midnight.
 */
export async function routeCrowdedMonths(page: Page, opts: { template: Json; from: string; utcOffsetHours: number; total?: number }): Promise<CrowdedRoute> {
  const total = opts.total ?? CROWDED_TOTAL;
  const months = new Map<string, Json[]>();
  const seen: URL[] = [];
  await page.route(EVENTS_LIST, async (route) => {
    const url = new URL(route.request().url());
    const after = url.searchParams.get('ends_after') ?? '';
    if ((url.searchParams.get('starts_before') ?? '') < opts.from) return route.continue();
    seen.push(url);
    if (!months.has(after)) {
      // The app asks from a day before the grid: the grid starts a day after `ends_after`.
      const gridStart = Date.parse(`${after.slice(0, 10)}T${String(opts.utcOffsetHours).padStart(2, '0')}:00:00Z`) + 86_400_000;
      months.set(after, crowdedMonth(opts.template, gridStart, 100_000 * (months.size + 1), total));
    }
    const events = months.get(after)!;
    const per = Number(url.searchParams.get('per_page'));
    const n = Number(url.searchParams.get('page'));
    const body = { events: events.slice((n - 1) * per, n * per), rest_url: url.href, total, total_pages: Math.ceil(total / per) };
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  });
  return { seen, stop: () => page.unroute(EVENTS_LIST) };
}

/** One render as the app reports it: events in range, entries drawn, ms from the data's arrival to a painted, idle page. */
export interface RenderTiming {
  events: number;
  drawn: number;
  ms: number;
}

export const resetRenders = (page: Page) => page.evaluate('window.__almanacPerf = { renders: [] }');
export const renders = (page: Page) => page.evaluate<RenderTiming[]>('window.__almanacPerf?.renders ?? []');

/** Waits for the render of a month with `total` events and returns its timing. */
export async function crowdedRender(page: Page, total = CROWDED_TOTAL, timeoutMs = 15_000): Promise<RenderTiming> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = (await renders(page)).find((r) => r.events === total);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no render of ${total} events within ${timeoutMs} ms`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

type TraceEvent = { name?: string; ts: number; tts?: number };

/** Trace categories `mainThreadTime` needs. */
export const TRACE_CATEGORIES = ['blink.user_timing'];

/**
 * Main-thread CPU time between the app's `almanac:events-received` and `almanac:events-drawn`
 * user-timing marks in a Chrome trace (their thread timestamps, `tts`, are CPU time).
 */
export function mainThreadTime(trace: { traceEvents: TraceEvent[] } | TraceEvent[]): number {
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const marks = events.filter((e) => e.name === 'almanac:events-received' || e.name === 'almanac:events-drawn').sort((a, b) => a.ts - b.ts);
  const drawnAt = marks.findIndex((e) => e.name === 'almanac:events-drawn');
  const received = marks.slice(0, drawnAt).reverse().find((e) => e.name === 'almanac:events-received');
  const drawn = marks[drawnAt];
  if (!received || !drawn || received.tts === undefined || drawn.tts === undefined) throw new Error('trace marks missing');
  return (drawn.tts - received.tts) / 1000;
}
