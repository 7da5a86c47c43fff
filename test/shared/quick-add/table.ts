/**
 * The quick-add tables' runner: each row is a sentence and the event body it must make, read
 * against a fixed "now" (Thursday 2027-03-25 10:00 on the wall clock) in two zones: Lisbon, whose
 * clocks go forward on Sunday 2027-03-28 at 01:00, and São Paulo, which no longer changes.
 */
import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { parseQuickAdd, type QuickAddBody } from '../../../shared/quick-add/parse';
import type { Language } from '../../../shared/i18n/languages';
import { eventFields } from '../../../shared/schema/resources';
import { validateFields } from '../../../electron/server/validate';

export const ZONES = ['Europe/Lisbon', 'America/Sao_Paulo'] as const;
export type Zone = (typeof ZONES)[number];

export const VENUES = [
  { id: 7, name: 'Luso' },
  { id: 8, name: 'Sala Luso' },
  { id: 9, name: 'Café Central' },
];

/** What a row expects beyond its title and dates. */
export interface Extra {
  rule?: string;
  /** The rule's UNTIL day: written as the end of that day in the zone, in UTC (a timed series). */
  until?: string;
  remind?: string;
  venue?: number;
  cats?: string[];
  problem?: 'no_date' | 'no_title';
  /** Where Lisbon's daylight-saving change makes its answer differ: its start and end. */
  lisbon?: [start: string, end: string];
}

/**
 * `start`: "2027-03-26 13:00" (timed) or "2027-03-26" (all-day). `end`: "14:00" (the same day),
 * "2027-03-28 02:00", or for an all-day event its last day ("2027-03-28"), the start's when left out.
 */
export type Row = [text: string, title: string, start: string, end: string | undefined, extra?: Extra];

export const nowIn = (zone: string) => DateTime.fromISO('2027-03-25T10:00:00', { zone }).toJSDate();

function expected(row: Row, zone: Zone): QuickAddBody {
  const [, title, start0, end0, x = {}] = row;
  const [start, end] = zone === 'Europe/Lisbon' && x.lisbon ? x.lisbon : [start0, end0];
  const allDay = start.length === 10;
  const body: QuickAddBody = {
    title,
    start_date: allDay ? `${start} 00:00:00` : `${start}:00`,
    end_date: allDay ? `${end ?? start} 23:59:59` : `${end!.length === 5 ? `${start.slice(0, 10)} ${end}` : end}:00`,
    all_day: allDay,
    timezone: zone,
    status: 'publish',
  };
  if (x.venue) body.venue = x.venue;
  if (x.cats) body.categories = x.cats;
  if (x.rule) {
    let rule = x.rule;
    if (x.until) {
      rule += allDay
        ? `;UNTIL=${x.until.replace(/-/g, '')}`
        : `;UNTIL=${DateTime.fromISO(`${x.until}T23:59:59`, { zone }).toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'")}`;
    }
    body.recurrence = { rules: [rule], rdates: [], exdates: [] };
  }
  if (x.remind) body.reminders = [{ action: 'display', trigger: x.remind }];
  return body;
}

export function runTable(lang: Language, rows: Row[]): void {
  it('has at least 60 sentences', () => expect(rows.length).toBeGreaterThanOrEqual(60));
  for (const zone of ZONES) {
    describe(zone, () => {
      for (const row of rows) {
        it(row[0], () => {
          const r = parseQuickAdd(row[0], { lang, now: nowIn(zone), zone, defaultMinutes: 60, venues: VENUES });
          expect(r.body).toEqual(expected(row, zone));
          expect(r.problems).toEqual(row[4]?.problem ? [row[4].problem] : []);
          // A body POST /events takes as it is: its fields pass the same checks.
          if (!r.problems.length) expect(() => validateFields(eventFields, { ...r.body }, 'create')).not.toThrow();
        });
      }
    });
  }
}
