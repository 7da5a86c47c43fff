/**
 * Form values ↔ records ↔ request bodies, driven by the field declarations in shared/schema.
 *
 * Form values are body-shaped (what the API accepts), with three exceptions made for editing:
 * terms are `{id?, name}` chips (new ones have no id yet), a venue may be `null` (none), and
 * rendered HTML (description, excerpt) is shown as its text or, when it holds real markup, as its
 * source (the rule is written out above HTML_SOURCE).
 */
import type { Event, Organizer, Venue, Term } from '@shared/api/records';
import { organizerFields, venueFields, type FieldDef, type FieldSet } from '@shared/schema/resources';
import { renderContent, textToHtml } from '@shared/content';
import { DateTime } from 'luxon';
import type { ApiError } from '../api/client';
import { decodeEntities } from '../calendar/toEventInput';
import type { EventDraft } from '../state/ui';
import { EDITOR_YEARS, fromApi, toApi, viewerZone } from '../lib/dates';
import { exactZone } from '../lib/zoneSearch';
import { defaultEventMinutes } from '../state/calendarSettings';

export interface TermRef {
  id?: number;
  name: string;
}
export interface NewVenue {
  venue: string;
  address?: string;
  city?: string;
  country?: string;
  zip?: string;
  phone?: string;
}
export interface NewOrganizer {
  organizer: string;
  email?: string;
  phone?: string;
}
export type VenueValue = number | NewVenue | null;
export type OrganizersValue = Array<number | NewOrganizer>;
export type FormValues = Record<string, unknown>;
export type FieldErrors = Record<string, string>;

/**
 * Fields no form shows: the UTC copy of the publication date is derived from `date`; the calendar
 * has its own picker in the event editor (names and colours, writable calendars only), not a number field.
 */
const NEVER_SHOWN = new Set(['date_utc', 'calendar']);

export function formFields(fields: FieldSet): Array<[string, FieldDef]> {
  return Object.entries(fields).filter(([name, def]) => !NEVER_SHOWN.has(name) && def.kind.input !== 'hidden');
}

/*
 * Descriptions and excerpts (and venues', organizers' and terms' long texts): the API takes them as
 * HTML, as the original plugin does ("HTML allowed"), and answers with its text rendered:
 * paragraphs in `<p>`, line breaks as `<br />` (serialize/content.ts). The rule below is the only
 * place the forms turn that HTML into what a textarea shows and back, and every path that writes
 * one goes through it (the editor, a duplicate, undo, the management dialogs), so that what is
 * saved is what was shown. A field the user did not touch is not sent at all (formToBody).
 *
 * - Text: HTML that is nothing but rendered text (paragraphs, line breaks, entities, a `<` that
 *   opens no tag): every description typed here, and another calendar's plain DESCRIPTION, which
 *   the iCalendar mapping stores escaped (`Use &lt;b&gt; &amp; co`). It is shown as the text a
 *   reader sees, entities decoded, and saved with `&`, `<` and `>` escaped: a `<b>` that was shown
 *   as four characters is saved as four characters, never as bold. What is typed in a new event is
 *   text too; a textarea shows no formatting, so nothing typed into one may become formatting.
 * - Source: HTML with any other markup (bold, links, lists from the website or Outlook). Decoded
 *   it would lose its markup, escaped it would show its tags as text, so it is shown as its source
 *   (the API's own `<p>` and `<br />` taken off, entities as written) and saved as typed: its
 *   markup stays markup and a `&lt;` in it stays an escaped `<`.
 *
 * Which one a field is comes from the HTML it was read from, so it is kept beside the values under
 * HTML_SOURCE (no field has that name; formToBody sends only fields).
 */

/** The names of the textarea fields of a form whose value is HTML source (see above); text otherwise. */
export const HTML_SOURCE = '@htmlSource';

/** Tags the API's rendering of text is made of: paragraphs and line breaks, without attributes. */
const TEXT_TAGS = /<\/?p>|<br\s*\/?>/gi;
/** A `<` that opens a tag, a comment or a declaration (`1 < 2` opens nothing, as in a browser). */
const OPENS_TAG = /<[a-z!?/]/i;

/** Whether the HTML is only rendered text (the "text" case above). */
function isRenderedText(html: string): boolean {
  return !OPENS_TAG.test(html.replace(TEXT_TAGS, ''));
}

/**
 * Source as the API's rendering taken back off: each `<p>…</p>` it wrapped around a paragraph (one
 * to a line of its answer) is that paragraph again, its `<br />` line breaks newlines, paragraphs a
 * blank line apart. Checked by rendering it again: when that is not the HTML read (a `<p>` the API
 * did not make, inside a `<div>`, say), the HTML is kept whole, which renders as itself.
 */
function unrender(html: string): string {
  const normalised = html.replace(/\r\n?/g, '\n').trim();
  const source = normalised
    .replace(/(?<=^|\n)<p>((?:<br \/>\n|(?!<\/p>)[^\n])*)<\/p>(?=\n|$)/g, (_, inner: string) => `\n\n${inner.replaceAll('<br />\n', '\n')}\n\n`)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return renderContent(source) === normalised ? source : normalised;
}

const LINE = '\u0000';
const PARAGRAPH = '\u0001';

/**
 * Rendered text (isRenderedText) as the text a reader sees, `<p>a &amp; b<br />\nc</p>` → `a & b\nc`:
 * a line break is a newline, paragraphs a blank line apart, and a bare newline in the HTML a space,
 * as a browser reads it. Spaces stay as typed. Text stored without any rendering (a term's
 * description) keeps its newlines.
 */
export function htmlToText(html: string | undefined): string {
  if (!html) return '';
  const normalised = html.replace(/\r\n?/g, '\n').replace(/[\u0000\u0001]/g, '');
  if (!/<(?:p|br)\b/i.test(normalised)) return decodeEntities(normalised).trim();
  const text = normalised
    .replace(/<br\s*\/?>\n?/gi, LINE)
    .replace(/\n*<\/?p>\n*/gi, PARAGRAPH)
    .replace(/\n/g, ' ')
    .replace(/[ \t]*\u0001[\u0001 \t]*/g, '\n\n')
    .replaceAll(LINE, '\n');
  return decodeEntities(text).trim();
}

export { textToHtml };

/** What a textarea shows of `html`, and whether that is its source (see above). */
function readHtml(html: string | undefined): { value: string; source: boolean } {
  if (!html) return { value: '', source: false };
  return isRenderedText(html) ? { value: htmlToText(html), source: false } : { value: unrender(html), source: true };
}

/** What the API is sent for a textarea's value: its source as typed, or its text escaped. */
function htmlOf(value: unknown, source: boolean): unknown {
  return typeof value === 'string' && !source ? textToHtml(value) : value;
}

const sourceFields = (v: FormValues): string[] => (Array.isArray(v[HTML_SOURCE]) ? (v[HTML_SOURCE] as string[]) : []);

/** Whether the textarea `name` edits HTML source (the form says so, as it does not show it). */
export const isHtmlSource = (v: FormValues, name: string): boolean => sourceFields(v).includes(name);

/** The cost as it was typed: `$10, $20` from values + symbol + position. */
export function costToText(e: Pick<Event, 'cost' | 'cost_details'>): string {
  const d = e.cost_details;
  if (!d || !d.values.length) return e.cost ? decodeEntities(e.cost) : '';
  return d.values.map((v) => (d.currency_position === 'postfix' ? `${v}${d.currency_symbol}` : `${d.currency_symbol}${v}`)).join(', ');
}

/** `$10, $20` → two values; a single value (even `1,000`) stays one string. */
export function textToCost(text: string): string | string[] {
  const parts = text.split(/\s*[,;]\s+|\s*;\s*/).map((s) => s.trim()).filter(Boolean);
  return parts.length > 1 ? parts : text.trim();
}

function emptyFor(def: FieldDef): unknown {
  switch (def.kind.input) {
    case 'checkbox':
      return false;
    case 'terms':
    case 'organizers':
      return [];
    case 'venue':
      return null;
    default:
      return '';
  }
}

export function emptyForm(fields: FieldSet): FormValues {
  return Object.fromEntries(formFields(fields).map(([name, def]) => [name, emptyFor(def)]));
}

const termRefs = (terms: Array<Pick<Term, 'id' | 'name'>>): TermRef[] => terms.map((t) => ({ id: t.id, name: decodeEntities(t.name) }));

export function eventToForm(e: Event, fields: FieldSet): FormValues {
  const v = emptyForm(fields);
  const set = (k: string, value: unknown) => {
    if (k in v) v[k] = value;
  };
  set('title', decodeEntities(e.title));
  set('start_date', e.start_date);
  set('end_date', e.end_date);
  set('timezone', e.timezone);
  set('all_day', e.all_day);
  const source: string[] = [];
  for (const name of ['description', 'excerpt'] as const) {
    const read = readHtml(e[name]);
    set(name, read.value);
    if (read.source && name in v) source.push(name);
  }
  if (source.length) v[HTML_SOURCE] = source;
  set('status', e.status);
  set('image', e.image ? e.image.url : '');
  set('cost', costToText(e));
  // Without a website of its own the API reports the event's permalink; that is not an input.
  set('website', e.website && e.website !== e.url ? e.website : '');
  for (const flag of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'] as const) set(flag, !!e[flag]);
  set('categories', termRefs(e.categories));
  set('tags', termRefs(e.tags));
  set('venue', Array.isArray(e.venue) ? null : e.venue.id);
  set('organizer', e.organizer.map((o) => o.id));
  set('slug', e.slug);
  set('author', e.author ? String(e.author) : '');
  set('date', e.date);
  set('translation_of', '');
  // As the API holds them: undo puts back exactly these (the Notifications section edits its own copy).
  set('reminders', e.reminders ?? []);
  return v;
}

export function draftToForm(d: EventDraft, fields: FieldSet): FormValues {
  const v = emptyForm(fields);
  Object.assign(v, {
    title: d.title ?? '',
    start_date: d.start_date,
    end_date: d.end_date,
    all_day: d.all_day,
    timezone: d.timezone,
    status: 'publish',
  });
  // What quick add read: a venue that exists, categories by name (the server finds or makes them).
  if (d.venue !== undefined && 'venue' in v) v.venue = d.venue;
  if (d.categories && 'categories' in v) v.categories = d.categories.map((name): TermRef => ({ name }));
  return v;
}

/**
 * A venue typed into the event's form, checked field by field by the schema's own kinds (what the
 * server will run), so a 2,000-character name is marked on the name (`venue.venue`) with the limit.
 */
function newRecordErrors(
  prefix: string,
  fields: FieldSet,
  value: Record<string, unknown>,
  required: string,
  issue: (key: string, vars?: Record<string, string | number>) => string,
): FieldErrors {
  const errors: FieldErrors = {};
  for (const [name, def] of Object.entries(fields)) {
    const raw = value[name];
    if (raw === undefined || raw === '') {
      if (def.required) errors[`${prefix}.${name}`] = required;
      continue;
    }
    let first: [string, Record<string, string | number> | undefined] | undefined;
    def.kind.parse(raw, { addIssue: (key, vars) => void (first ??= [key, vars]) });
    if (first) errors[`${prefix}.${name}`] = issue(...first);
  }
  return errors;
}

/** The errors of `name`'s own fields (`venue.city` → `city`), for the sub-form that shows them. */
export function subErrors(errors: FieldErrors, name: string): FieldErrors {
  const out: FieldErrors = {};
  for (const [k, text] of Object.entries(errors)) if (k.startsWith(`${name}.`)) out[k.slice(name.length + 1)] = text;
  return out;
}

/** Venue, organizer or term → form values for its own management form. */
export function recordToForm(record: Venue | Organizer | Term | Record<string, unknown>, fields: FieldSet): FormValues {
  const v = emptyForm(fields);
  const r = record as Record<string, unknown>;
  const source: string[] = [];
  for (const [name, def] of formFields(fields)) {
    const raw = r[name];
    if (raw === undefined || raw === null) continue;
    if (name === 'image') v[name] = typeof raw === 'object' ? ((raw as { url?: string }).url ?? '') : String(raw);
    else if (def.kind.input === 'textarea') {
      const read = readHtml(String(raw));
      v[name] = read.value;
      if (read.source) source.push(name);
    }
    else if (def.kind.input === 'checkbox') v[name] = !!raw;
    else if (def.kind.input === 'number') v[name] = name === 'parent' && raw === 0 ? '' : String(raw);
    else v[name] = typeof raw === 'string' ? decodeEntities(raw) : String(raw);
  }
  if (source.length) v[HTML_SOURCE] = source;
  return v;
}

/** One form value as the API takes it; `source`: a textarea's value is HTML source (see HTML_SOURCE). */
export function toBodyValue(name: string, def: FieldDef, value: unknown, source = false): unknown {
  switch (def.kind.input) {
    case 'textarea':
      return htmlOf(value, source);
    case 'timezone':
      // `GMT+1` typed is the fixed offset `UTC+1` the API knows; anything else was refused before.
      return typeof value === 'string' ? (exactZone(value) ?? value) : value;
    case 'terms':
      return (value as TermRef[]).map((t) => t.id ?? t.name);
    case 'venue':
      // `0` is how the API is told to unlink the venue.
      return value ?? 0;
    case 'cost':
      return textToCost(String(value ?? ''));
    case 'number': {
      const s = String(value ?? '').trim();
      if (s === '') return name === 'parent' ? 0 : '';
      return Number(s);
    }
    default:
      return typeof value === 'string' ? value.trim() : value;
  }
}

const normal = (v: unknown) => JSON.stringify(v ?? null);

/** Names of the fields whose values differ. */
export function changedFields(initial: FormValues, current: FormValues): string[] {
  return Object.keys(current).filter((k) => normal(initial[k]) !== normal(current[k]));
}

/**
 * The request body: on create every field that has a value, on update only what changed (every
 * update is partial, so untouched fields are left alone on the server).
 */
export function formToBody(fields: FieldSet, current: FormValues, initial?: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const names = initial ? changedFields(initial, current) : Object.keys(current);
  for (const name of names) {
    const def = fields[name];
    if (!def) continue;
    const value = current[name];
    if (!initial) {
      const empty = value === '' || value === null || value === false || (Array.isArray(value) && value.length === 0);
      // `false` flags are the default on create; leaving them out keeps the body short.
      if (empty && !def.required) continue;
    }
    body[name] = toBodyValue(name, def, value, isHtmlSource(current, name));
  }
  return body;
}

/**
 * Checks the browser can make without asking: required fields, years a calendar means (a date
 * input takes `26` as the year 0026), a time zone typed but not picked, the order of the dates.
 */
export function localErrors(
  fields: FieldSet,
  v: FormValues,
  msg: { required: string; endBeforeStart: string; yearRange?: string; zone?: string; issue?: (key: string, vars?: Record<string, string | number>) => string },
): FieldErrors {
  const errors: FieldErrors = {};
  for (const [name, def] of formFields(fields)) {
    const value = v[name];
    if (def.kind.input === 'venue' && value && typeof value === 'object' && msg.issue) Object.assign(errors, newRecordErrors(name, venueFields, value as Record<string, unknown>, msg.required, msg.issue));
    if (def.required && String(value ?? '').trim() === '') errors[name] = msg.required;
    else if (def.kind.input === 'datetime' && typeof value === 'string' && value && msg.yearRange) {
      const year = Number(value.slice(0, 4));
      if (!(year >= EDITOR_YEARS.min && year <= EDITOR_YEARS.max)) errors[name] = msg.yearRange;
    } else if (def.kind.input === 'timezone' && typeof value === 'string' && msg.zone && exactZone(value) === null) errors[name] = msg.zone;
  }
  if (errors.start_date || errors.end_date) return errors;
  if (typeof v.start_date === 'string' && typeof v.end_date === 'string' && v.start_date && v.end_date && v.end_date < v.start_date) {
    errors.end_date = msg.endBeforeStart;
  }
  return errors;
}

/** The body that puts back what an update changed (for undo). */
export function reverseBody(fields: FieldSet, before: Event, keys: string[]): Record<string, unknown> {
  const old = eventToForm(before, fields);
  const body: Record<string, unknown> = {};
  for (const k of keys) if (fields[k] && k in old) body[k] = toBodyValue(k, fields[k], old[k], isHtmlSource(old, k));
  if (keys.some((k) => k === 'start_date' || k === 'end_date' || k === 'all_day')) {
    body.start_date = before.start_date;
    body.end_date = before.end_date;
    body.all_day = before.all_day;
  }
  return body;
}

/**
 * The values after the user set `name` to `value`, with what a calendar moves along with it:
 * a new start moves the end by as much, keeping the length (only editing the end changes it, as
 * in Google Calendar and Thunderbird); unticking All day gives a slot of the default length
 * (Settings) at 9:00 (or the next hour, today) instead of 00:00–23:59.
 */
export function applyChange(cur: FormValues, name: string, value: unknown, now = new Date(), lengthMinutes = defaultEventMinutes()): FormValues {
  const next = { ...cur, [name]: value };
  if (name === 'start_date' && typeof value === 'string' && typeof cur.start_date === 'string' && typeof cur.end_date === 'string') {
    // Wall times read as UTC: the length is the same on the clock whatever the zone's rules.
    const before = fromApi(cur.start_date, 'UTC');
    const after = fromApi(value, 'UTC');
    const end = fromApi(cur.end_date, 'UTC');
    if (before.isValid && after.isValid && end.isValid) next.end_date = toApi(end.plus(after.diff(before)));
  }
  if (name === 'all_day' && value === false && cur.all_day === true && typeof cur.start_date === 'string' && cur.start_date) {
    const day = cur.start_date.slice(0, 10);
    // "Now" on the calendar's clock, the one the user reads the form's times on.
    const here = DateTime.fromJSDate(now, { zone: viewerZone() });
    const hour = day === here.toISODate() ? Math.min(here.hour + 1, 23) : 9;
    const start = fromApi(`${day} ${String(hour).padStart(2, '0')}:00:00`, 'UTC');
    if (start.isValid) {
      next.start_date = toApi(start);
      next.end_date = toApi(start.plus({ minutes: lengthMinutes }));
    }
  }
  return next;
}

/**
 * The server's refusal in plain words: each field it names, by its label, with the reason
 * ("Website: Must be an absolute http or https URL."), instead of "Invalid parameter(s): website".
 */
export function refusalText(err: ApiError, fields: FieldSet, label: (key: string) => string, required: string): string {
  const reasons = err.fieldErrors;
  const names = Object.keys(reasons);
  if (!names.length) return err.message;
  const missing = Array.isArray(err.params);
  const labelOf = (n: string) => {
    const [head, sub] = n.split('.');
    if (!fields[head]) return n;
    const own = sub && (head === 'venue' ? venueFields : head === 'organizer' ? organizerFields : undefined)?.[sub];
    return own ? `${label(fields[head].label)} › ${label(own.label)}` : label(fields[head].label);
  };
  return names.map((n) => `${labelOf(n)}: ${missing ? required : reasons[n]}`).join('\n');
}
