/**
 * Field kinds: what a body field or query parameter may hold.
 *
 * Each kind is declared once with three faces: a check that validates and normalises a raw request
 * value, the OpenAPI type that `/doc` publishes, and the form input the renderer draws.
 * Issues carry a message key (see shared/i18n/messages.ts) so the error text can be given in the
 * request's language while the check itself stays here.
 */
import { isValidTimeZone } from '../dates/zones';
import { looksLikeDate } from '../dates/parse';
import { normalizeReminders } from '../reminders';

export const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
export type PostStatus = (typeof STATUSES)[number];

/** Longest accepted single-line value; longer input is refused rather than stored. */
export const MAX_LINE = 1000;
/** Longest accepted free text (description, excerpt); the 1 MB body limit applies as well. */
export const MAX_TEXT = 200_000;

type FormInput =
  | 'text'
  | 'textarea'
  | 'checkbox'
  | 'number'
  | 'datetime'
  | 'url'
  | 'email'
  | 'tel'
  | 'timezone'
  | 'select'
  | 'terms'
  | 'venue'
  | 'organizers'
  | 'image'
  | 'cost'
  | 'recurrence'
  | 'reminders'
  | 'clock'
  | 'color'
  | 'password'
  | 'hidden';

export interface OpenApiType {
  type: 'string' | 'integer' | 'boolean' | 'number' | 'array' | 'object';
  format?: string;
  enum?: readonly string[];
  items?: OpenApiType;
  oneOf?: OpenApiType[];
  minimum?: number;
  maximum?: number;
}

export interface Kind<T = unknown> {
  /**
   * Checks and normalises a raw value, reporting problems to `ctx`: a value with any issue is
   * refused (validate.ts). A plain function rather than a zod schema: zod's cost per call was a
   * fifth of an import's time, for values checked one at a time.
   */
  parse: (v: unknown, ctx: IssueSink) => T;
  openapi: OpenApiType;
  input: FormInput;
  /** `null` is a value of this kind (it means "none"), not an absent field. */
  nullIsValue?: boolean;
}

/**
 * What a kind's check reports its problems to, each as a message key (shared/i18n/messages.ts)
 * and the values its words name (a length error says the limit: `{max}`).
 */
export interface IssueSink {
  addIssue(key: string, vars?: Record<string, string | number>): void;
}

/** Reports `key`; the value returned is never used, as the value is refused. */
const fail = (ctx: IssueSink, key: string, vars?: Record<string, string | number>): never => {
  ctx.addIssue(key, vars);
  return undefined as never;
};

function checkText(value: string, ctx: IssueSink, max: number): string {
  if (value.includes('\u0000')) return fail(ctx, 'invalid_nul');
  if (value.length > max) return fail(ctx, 'invalid_too_long', { max });
  return value;
}

/** A single line of text. `nonEmpty` refuses "" (the original does so for names and titles). */
export const text = (opts: { nonEmpty?: boolean; max?: number } = {}): Kind<string> => ({
  parse: (v, ctx) => {
    if (typeof v === 'number' && Number.isFinite(v)) v = String(v);
    if (typeof v !== 'string') return fail(ctx, 'invalid_string');
    if (opts.nonEmpty && v.trim() === '') return fail(ctx, 'invalid_empty');
    return checkText(v, ctx, opts.max ?? MAX_LINE);
  },
  openapi: { type: 'string' },
  input: 'text',
});

/** A password as typed: never trimmed (spaces may be part of it), never empty. */
export const password = (): Kind<string> => ({
  parse: (v, ctx) => {
    if (typeof v !== 'string') return fail(ctx, 'invalid_string');
    if (v === '') return fail(ctx, 'invalid_empty');
    return checkText(v, ctx, MAX_LINE);
  },
  openapi: { type: 'string', format: 'password' },
  input: 'password',
});

/** Names (a JSON array of strings, or one string of comma-separated names). */
export const textList = (): Kind<string[]> => ({
  parse: (v, ctx) => {
    const list = typeof v === 'string' ? v.split(',') : v;
    if (!Array.isArray(list) || list.some((x) => typeof x !== 'string')) return fail(ctx, 'invalid_list');
    const out = (list as string[]).map((x) => x.trim()).filter(Boolean);
    for (const x of out) checkText(x, ctx, MAX_LINE);
    if (out.length > 1000) return fail(ctx, 'invalid_too_many', { max: 1000 });
    return out;
  },
  openapi: { type: 'array', items: { type: 'string' } },
  input: 'hidden',
});

export const longText = (opts: { nonEmpty?: boolean } = {}): Kind<string> => ({
  ...text({ ...opts, max: MAX_TEXT }),
  input: 'textarea',
});

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off', '']);

export function toBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  if (typeof v === 'string') {
    const w = v.trim().toLowerCase();
    if (TRUE_WORDS.has(w)) return true;
    if (FALSE_WORDS.has(w)) return false;
  }
  return undefined;
}

export const boolean = (): Kind<boolean> => ({
  parse: (v, ctx) => {
    const b = toBoolean(v);
    return b === undefined ? fail(ctx, 'invalid_boolean') : b;
  },
  openapi: { type: 'boolean' },
  input: 'checkbox',
});

export function toInteger(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  // Up to 2^53: an occurrence shown without a row has an id past 2^52 (series-virtual.ts).
  if (typeof v === 'string' && /^\s*-?\d{1,16}\s*$/.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
  return undefined;
}

/** A whole number; `max` with `issue` names the range in the refusal (a setting's bounds). */
export const integer = (opts: { min?: number; max?: number; issue?: string } = {}): Kind<number> => ({
  parse: (v, ctx) => {
    const n = toInteger(v);
    const issue = opts.issue ?? 'invalid_integer';
    if (n === undefined) return fail(ctx, issue);
    if ((opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) return fail(ctx, issue);
    return n;
  },
  openapi: { type: 'integer', ...(opts.min !== undefined ? { minimum: opts.min } : {}), ...(opts.max !== undefined ? { maximum: opts.max } : {}) },
  input: 'number',
});

/** A time of day, `HH:MM` on a 24-hour clock (working hours). */
export const clock = (): Kind<string> => ({
  parse: (v, ctx) => {
    if (typeof v !== 'string') return fail(ctx, 'invalid_clock');
    const m = /^(\d{1,2}):(\d{2})$/.exec(v.trim());
    if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return fail(ctx, 'invalid_clock');
    return `${m[1].padStart(2, '0')}:${m[2]}`;
  },
  openapi: { type: 'string', format: 'time: HH:MM, 24-hour' },
  input: 'clock',
});

/** A colour as `#rrggbb` (lower-cased), or "" for none. */
export const color = (): Kind<string> => ({
  parse: (v, ctx) => {
    if (typeof v !== 'string') return fail(ctx, 'invalid_color');
    const s = v.trim().toLowerCase();
    if (s === '') return '';
    if (!/^#[0-9a-f]{6}$/.test(s)) return fail(ctx, 'invalid_color');
    return s;
  },
  openapi: { type: 'string', format: 'color: #rrggbb, or "" for none' },
  input: 'color',
});

/** A number in a range; `clearable` lets "" mean "none" (a venue's coordinates). */
export const number = (opts: { min: number; max: number; clearable?: boolean }): Kind<number | null> => ({
  parse: (v, ctx) => {
    if (v === '' && opts.clearable) return null;
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (!Number.isFinite(n) || n < opts.min || n > opts.max) return fail(ctx, 'invalid_number');
    return n;
  },
  openapi: { type: 'number' },
  input: 'number',
});

/** A date: a unix timestamp (number or numeric string) or text in a form strtotime knows. */
export const dateTime = (opts: { nonEmpty?: boolean } = {}): Kind<string | number> => ({
  parse: (v, ctx) => {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v !== 'string') return fail(ctx, 'invalid_date');
    if (v.trim() === '') return opts.nonEmpty ? fail(ctx, 'invalid_date') : '';
    if (v.length > 100 || !looksLikeDate(v)) return fail(ctx, 'invalid_date');
    return v;
  },
  openapi: { type: 'string', format: 'date-time' },
  input: 'datetime',
});

const URL_SCHEMES = new Set(['http:', 'https:']);

export function isAbsoluteUrl(v: string, schemes: Set<string> = URL_SCHEMES): boolean {
  if (/\s/.test(v)) return false;
  try {
    const u = new URL(v);
    return schemes.has(u.protocol) && (u.protocol === 'file:' || u.hostname !== '');
  } catch {
    return false;
  }
}

/** A web address, or "" to clear it. */
export const url = (): Kind<string> => ({
  parse: (v, ctx) => {
    if (typeof v !== 'string') return fail(ctx, 'invalid_url');
    const s = v.trim();
    if (s === '') return '';
    if (s.length > 2048 || !isAbsoluteUrl(s)) return fail(ctx, 'invalid_url');
    return s;
  },
  openapi: { type: 'string', format: 'uri' },
  input: 'url',
});

export const email = (): Kind<string> => ({
  parse: (v, ctx) => {
    if (typeof v !== 'string') return fail(ctx, 'invalid_email');
    const s = v.trim();
    if (s === '') return '';
    if (s.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s)) return fail(ctx, 'invalid_email');
    return s;
  },
  openapi: { type: 'string', format: 'email' },
  input: 'email',
});

/** An IANA zone id (`Europe/Lisbon`), `UTC`, or a fixed offset (`UTC+2`); "" means the site's. */
export const timezone = (): Kind<string> => ({
  parse: (v, ctx) => {
    if (typeof v !== 'string') return fail(ctx, 'invalid_timezone');
    const s = v.trim();
    if (s === '') return '';
    if (!isValidTimeZone(s)) return fail(ctx, 'invalid_timezone');
    return s;
  },
  openapi: { type: 'string' },
  input: 'timezone',
});

export const status = (): Kind<PostStatus> => ({
  parse: (v, ctx) => {
    if (typeof v !== 'string' || !(STATUSES as readonly string[]).includes(v)) return fail(ctx, 'invalid_status');
    return v as PostStatus;
  },
  openapi: { type: 'string', enum: STATUSES },
  input: 'select',
});

const IMAGE_SCHEMES = new Set(['http:', 'https:', 'file:']);

/** An image: the id of an image already known, or an absolute http/https/file URL; "" clears. */
export type ImageInput = { id: number } | { url: string } | null;
export const image = (): Kind<ImageInput> => ({
  parse: (v, ctx): ImageInput => {
    if (v === '' || v === false || v === 0 || v === '0') return null;
    const id = toInteger(v);
    if (id !== undefined) return id > 0 ? { id } : fail(ctx, 'invalid_image');
    if (typeof v === 'string' && v.length <= 2048 && isAbsoluteUrl(v.trim(), IMAGE_SCHEMES)) return { url: v.trim() };
    return fail(ctx, 'invalid_image');
  },
  openapi: { type: 'string', description: 'Image id or absolute http, https or file URL' } as OpenApiType,
  input: 'image',
});

/** A cost: one value or a list of values, each text such as `20`, `$20`, `20€`, `Free`. */
export const cost = (): Kind<string[]> => ({
  parse: (v, ctx) => {
    const list = Array.isArray(v) ? v : [v];
    const out: string[] = [];
    for (const item of list) {
      if (typeof item === 'number' && Number.isFinite(item)) out.push(String(item));
      else if (typeof item === 'string') out.push(checkText(item.trim(), ctx, 100));
      else return fail(ctx, 'invalid_cost');
    }
    if (out.length > 50) return fail(ctx, 'invalid_cost');
    return out.filter((s) => s !== '');
  },
  openapi: { type: 'string', oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
  input: 'cost',
});

/** Splits `a, b` or `[a, b]` into a list of ids and names. Empty input means "none". */
export type RefList = Array<number | string>;
function toRefList(v: unknown, ctx: IssueSink, allowNames: boolean): RefList {
  if (v === '' || v === 0 || v === '0' || v === null || v === false) return [];
  // Refused as an empty list, so the list kinds below can go on to their own length check.
  const refused = (): RefList => {
    ctx.addIssue('invalid_list');
    return [];
  };
  const raw: unknown[] = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
  if (raw.length > 200) return refused();
  const out: RefList = [];
  for (const item of raw) {
    const id = toInteger(typeof item === 'string' ? item.trim() : item);
    if (id !== undefined) {
      if (id <= 0) return refused();
      out.push(id);
    } else if (allowNames && typeof item === 'string') {
      const name = item.trim();
      if (name === '') continue;
      if (name.length > 200 || name.includes('\u0000')) return refused();
      out.push(name);
    } else return refused();
  }
  return out;
}

/** Categories or tags in an event body: ids, names or slugs; unknown names create terms. */
export const termRefs = (): Kind<RefList> => ({
  parse: (v, ctx) => toRefList(v, ctx, true),
  openapi: { type: 'array', items: { type: 'string' } },
  input: 'terms',
});

/** A list of ids (query filters such as `venue=1,2` or `include`). */
export const idList = (): Kind<number[]> => ({
  parse: (v, ctx) => {
    const list = toRefList(v, ctx, false) as number[];
    if (list.length === 0) return fail(ctx, 'invalid_list');
    return list;
  },
  openapi: { type: 'array', items: { type: 'integer' } },
  input: 'hidden',
});

/** A list of slugs or ids (`categories=music,12`). */
export const slugOrIdList = (): Kind<RefList> => ({
  parse: (v, ctx) => {
    const list = toRefList(v, ctx, true);
    if (list.length === 0) return fail(ctx, 'invalid_list');
    return list;
  },
  openapi: { type: 'array', items: { type: 'string' } },
  input: 'hidden',
});

/** One of a fixed set of words (query parameters such as `order`). */
export const oneOf = <T extends string>(values: readonly T[]): Kind<T> => ({
  parse: (v, ctx) => {
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) return fail(ctx, 'invalid_choice');
    return v as T;
  },
  openapi: { type: 'string', enum: values },
  input: 'select',
});

/**
 * A linked venue or organizer in an event body, kept raw here: it may be an id, an `{id}` object,
 * or a whole record to create, so the resource's own field rules check it where it is resolved.
 */
export const linkedRecords = (input: 'venue' | 'organizers'): Kind<unknown> => ({
  parse: (v) => v,
  openapi:
    input === 'venue'
      ? { type: 'integer', oneOf: [{ type: 'integer' }, { type: 'object' }] }
      : { type: 'array', items: { type: 'integer' } },
  input,
});

/** A status filter: one status, a CSV, or a list; every entry must be a known status. */
export const statusList = (): Kind<PostStatus[]> => ({
  parse: (v, ctx) => {
    const raw = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : null;
    if (!raw || raw.length === 0 || raw.length > 10) return fail(ctx, 'invalid_status');
    const out: PostStatus[] = [];
    for (const item of raw) {
      const s = typeof item === 'string' ? item.trim() : item;
      if (s === 'any') out.push('publish', 'future', 'draft', 'pending', 'private');
      else if (typeof s === 'string' && (STATUSES as readonly string[]).includes(s)) out.push(s as PostStatus);
      else return fail(ctx, 'invalid_status');
    }
    return [...new Set(out)];
  },
  openapi: { type: 'array', items: { type: 'string', enum: STATUSES } },
  input: 'select',
});

/** A language code of the multilingual layer. */
export const language = (values: readonly string[]): Kind<string> => ({
  parse: (v, ctx) => {
    if (typeof v !== 'string' || !values.includes(v.toLowerCase())) return fail(ctx, 'invalid_language');
    return v.toLowerCase();
  },
  openapi: { type: 'string', enum: values },
  input: 'select',
});

/**
 * A recurrence (Almanac): `{"rules": [RRULE values], "rdates": [...], "exdates": [...]}`, a bare
 * RRULE value, or null for none. Only its shape is checked here; the rules themselves are checked
 * against the event's start and zone where the series is stored (icalendar/recurrence.ts).
 */
export const recurrence = (): Kind<unknown> => ({
  parse: (v, ctx) => {
    if (v === null || v === '' || v === 'null') return null;
    if (typeof v === 'string') {
      const text = v.trim();
      if (text.startsWith('{')) {
        try {
          v = JSON.parse(text);
        } catch {
          return fail(ctx, 'invalid_recurrence');
        }
      } else return text.length > MAX_LINE ? fail(ctx, 'invalid_recurrence') : { rules: [text] };
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(ctx, 'invalid_recurrence');
    return v;
  },
  openapi: {
    type: 'object',
    format: 'recurrence: {"rules": ["FREQ=WEEKLY;BYDAY=TU;UNTIL=20270601T000000Z"], "rdates": ["20270105T180000"], "exdates": ["20261208T180000"]}',
  },
  input: 'recurrence',
  nullIsValue: true,
});

/**
 * Reminders (Almanac): a list of `{"action", "trigger" | "at", "related", "repeat", "repeat_every"}`,
 * each an RFC 5545 VALARM (shared/reminders.ts); a bare duration such as "-PT15M" is a display
 * reminder; null or [] for none.
 */
export const reminders = (): Kind<unknown> => ({
  parse: (v, ctx) => {
    const out = normalizeReminders(v);
    return typeof out === 'string' ? fail(ctx, out) : out;
  },
  openapi: {
    type: 'array',
    items: { type: 'object' },
    format:
      'reminders: [{"action": "display", "trigger": "-PT15M"}, {"action": "audio", "trigger": "-PT5M", "related": "end"}, {"action": "email", "at": "2027-01-05T08:00:00Z", "repeat": 2, "repeat_every": "PT5M"}]',
  } as OpenApiType,
  input: 'reminders',
  nullIsValue: true,
});
