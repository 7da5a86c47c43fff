/**
 * An import item's body checked against its record kind's fields (the API's own checks) and made
 * into the values the store writes. The import's writing thread does this for each item; for a
 * large iCalendar file the reading thread does it instead, while the writer writes the events
 * before (icalendar/read-worker.ts), and works out their dates too. Both run this same code.
 */
import { validateFields, type Declared } from '../validate';
import { isLanguage, type Language } from '../../../shared/i18n/languages';
import { resolveEventDates, type EventDateMemo, type EventDates } from '../store/event-dates';
import type { Values, WriteContext } from '../store/post-fields';
import type { StoredReminder } from '../store/reminders';

/** Body keys an importer may produce that the API does not take from clients. */
const NOT_BODY = new Set(['i18n_language']);

/** What working out an item's dates needs: the import's "now" and zone, and a memo of answers. */
export interface DatesContext {
  ctx: Pick<WriteContext, 'now' | 'siteZone'>;
  memo: EventDateMemo;
}

export interface PreparedItem {
  /** The checked values, without the reminders. */
  values: Values;
  /** The item's reminders, with what its file's VALARMs said besides (`ical`); absent: none given. */
  reminders?: StoredReminder[];
  /** The language the item says it is in (Almanac's own exports); else the import's. */
  lang?: Language;
  /** Its stored dates when it is created (`resolveEventDates`), when worked out ahead. */
  dates?: EventDates;
}

/**
 * Checks an item's body; throws the API's error for a bad value, as a request would get.
 * `events`: the item is an event (its reminders may carry their VALARM's lines). `dates`: also work
 * out the dates it would be created with.
 */
export function prepareItem(
  fields: Record<string, Declared>,
  body: Record<string, unknown>,
  events: boolean,
  dates?: DatesContext,
): PreparedItem {
  const raw: Record<string, unknown> = {};
  for (const k in body) if (!NOT_BODY.has(k)) raw[k] = body[k];
  // What an ICS file's VALARMs say besides the reminder itself rides past the field checks.
  const alarmLines = events && Array.isArray(raw.reminders) ? (raw.reminders as Array<{ ical?: string }>).map((r) => r?.ical) : undefined;
  if (alarmLines) raw.reminders = (raw.reminders as Array<Record<string, unknown>>).map(({ ical: _ical, ...r }) => r);
  const values = validateFields(fields, raw, 'create');
  let reminders = values.reminders as StoredReminder[] | undefined;
  delete values.reminders;
  if (reminders && alarmLines) reminders = reminders.map((r, i) => (alarmLines[i] ? { ...r, ical: alarmLines[i] } : r));
  const prepared: PreparedItem = { values };
  if (reminders !== undefined) prepared.reminders = reminders;
  if (isLanguage(body.i18n_language)) prepared.lang = body.i18n_language;
  if (dates) {
    const { recurrence: _rule, ...fieldValues } = values;
    prepared.dates = resolveEventDates(fieldValues, undefined, dates.ctx, dates.memo);
  }
  return prepared;
}
