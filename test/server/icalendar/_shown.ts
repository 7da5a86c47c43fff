/** What the calendar shows for imported items: the tests' view of a parsed file. */
import type { ImportedEvent } from '../../../electron/server/icalendar/import';
import { expand } from '../../../electron/server/icalendar/recurrence';

/**
 * The occurrences the calendar will show for the file's events, up to `until`: each series
 * expanded by the product's engine (recurrence.ts) with its overrides applied, in start order.
 */
export function shown(events: ImportedEvent[], until = '2100-01-01 00:00:00'): ImportedEvent[] {
  const out: ImportedEvent[] = [];
  const masters = new Map(events.filter((e) => e.body.recurrence).map((e) => [e.uid, e]));
  const overrides = new Map(events.filter((e) => e.recurrenceId !== undefined && masters.has(e.uid)).map((e) => [`${e.uid} ${e.recurrenceId}`, e]));
  for (const e of events) {
    if (e.recurrenceId !== undefined && masters.has(e.uid)) continue;
    const rec = e.body.recurrence;
    if (!rec) {
      out.push(e);
      continue;
    }
    const timing = { start: e.body.start_date, zone: e.body.timezone, allDay: e.body.all_day };
    const length = Date.parse(`${e.body.end_date.replace(' ', 'T')}Z`) - Date.parse(`${e.body.start_date.replace(' ', 'T')}Z`);
    const keys = new Set(expand(rec, timing, '0001-01-01 00:00:00', until).starts);
    for (const o of overrides.values()) if (o.uid === e.uid && o.recurrenceId! < until) keys.add(o.recurrenceId!);
    for (const key of [...keys].sort()) {
      const override = overrides.get(`${e.uid} ${key}`);
      if (override) out.push(override);
      else {
        const end = new Date(Date.parse(`${key.replace(' ', 'T')}Z`) + length).toISOString().slice(0, 19).replace('T', ' ');
        out.push({ ...e, recurrenceId: key, body: { ...e.body, start_date: key, end_date: end } });
      }
    }
  }
  return out.sort((a, b) => (a.body.start_date < b.body.start_date ? -1 : a.body.start_date > b.body.start_date ? 1 : 0));
}
