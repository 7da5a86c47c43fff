/**
 * Shared helpers of the cal/events/v1 API suite: error assertions, record factories and the key
 * orders of the original's records (reference §7).
 */
import { expect } from 'vitest';
import type request from 'supertest';
import { ApiErrorBody } from '../../../shared/api/records';
import type { TestServer } from '../../helpers/server';

export type Res = request.Response;

let counter = 0;
/** A name no other test in the file uses. */
export const uniq = (prefix: string) => `${prefix} ${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 7)}`;

/** The response is JSON, never HTML or a stack trace. */
export function expectJson(res: Res) {
  expect(res.headers['content-type'] ?? '').toMatch(/^application\/json/);
  expect(res.text).not.toMatch(/<html|<!doctype|<body/i);
  expect(res.text).not.toMatch(/\n\s+at [\w.<>]+ \(|node_modules|\.ts:\d+/);
}

/** An error in the original's envelope with this status and code. */
export function expectError(res: Res, status: number, code: string) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expectJson(res);
  ApiErrorBody.parse(res.body);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
  expect(res.body.data.status).toBe(status);
}

/** 400 rest_invalid_param naming `param` (among possibly others). */
export function expectInvalidParam(res: Res, param: string) {
  expectError(res, 400, 'rest_invalid_param');
  expect(res.body.data.params).toBeTypeOf('object');
  expect(Array.isArray(res.body.data.params)).toBe(false);
  expect(Object.keys(res.body.data.params)).toContain(param);
}

/** 400 rest_missing_callback_param naming exactly `params`. */
export function expectMissing(res: Res, params: string[]) {
  expectError(res, 400, 'rest_missing_callback_param');
  expect(res.body.data.params).toEqual(params);
  expect(res.body.message).toContain(params.join(', '));
}

export async function mkVenue(t: TestServer, body: Record<string, unknown> = {}) {
  const res = await t.api('post', 'venues').send({ venue: uniq('Venue'), ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function mkOrganizer(t: TestServer, body: Record<string, unknown> = {}) {
  const res = await t.api('post', 'organizers').send({ organizer: uniq('Organizer'), ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function mkTerm(t: TestServer, kind: 'categories' | 'tags', body: Record<string, unknown> = {}) {
  const res = await t.api('post', kind).send({ name: uniq(kind === 'categories' ? 'Cat' : 'Tag'), ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function mkEvent(t: TestServer, body: Record<string, unknown> = {}) {
  const res = await t
    .api('post', 'events')
    .send({ title: uniq('Event'), start_date: '2031-05-10 10:00:00', end_date: '2031-05-10 12:00:00', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Reference §7.1 key order (json_ld only on single reads). */
export const EVENT_KEYS = [
  'id', 'global_id', 'global_id_lineage', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'rest_url',
  'title', 'description', 'excerpt', 'slug', 'image', 'all_day', 'start_date', 'start_date_details', 'end_date', 'end_date_details',
  'utc_start_date', 'utc_start_date_details', 'utc_end_date', 'utc_end_date_details', 'timezone', 'timezone_abbr', 'cost',
  'cost_details', 'website', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'categories', 'tags', 'venue',
  'organizer', 'custom_fields',
];
/** Reference §7.2, before falsy values are dropped. */
export const VENUE_KEYS = [
  'id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'venue', 'description', 'excerpt', 'slug', 'image',
  'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince', 'geo_lat', 'geo_lng', 'json_ld',
  'show_map', 'show_map_link', 'global_id', 'global_id_lineage',
];
/** Reference §7.3. */
export const ORGANIZER_KEYS = [
  'id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'organizer', 'description', 'excerpt', 'slug',
  'image', 'phone', 'website', 'email', 'json_ld', 'global_id', 'global_id_lineage',
];
export const CATEGORY_KEYS = ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls'];
export const TAG_KEYS = ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls'];
export const EMBEDDED_TERM_KEYS = ['name', 'slug', 'term_group', 'term_taxonomy_id', 'taxonomy', 'description', 'parent', 'count', 'filter', 'id', 'urls'];
/** Keys Almanac adds to records (languages, decisions page). */
export const ALMANAC_KEYS = ['i18n_language', 'translations', 'recurrence', 'series_id', 'recurrence_id', 'is_exception', 'reminders', 'calendar', 'color', 'series_count'];

/**
 * The record's keys, Almanac's additions left out, are in the reference order (a subsequence of
 * `order`: keys the original drops when empty may be absent).
 */
export function expectKeyOrder(obj: Record<string, unknown>, order: string[], mustHave: string[] = []) {
  const keys = Object.keys(obj).filter((k) => !ALMANAC_KEYS.includes(k));
  const unknown = keys.filter((k) => !order.includes(k) && k !== 'json_ld');
  expect(unknown, 'keys the original does not have').toEqual([]);
  const expected = order.filter((k) => keys.includes(k));
  expect(keys).toEqual(expected);
  for (const k of mustHave) expect(keys).toContain(k);
}

/** `{year, month, ...}` of a `Y-m-d H:i:s` string, zero-padded strings. */
export function details(s: string) {
  const [d, t] = s.split(' ');
  const [year, month, day] = d.split('-');
  const [hour, minutes, seconds] = t.split(':');
  return { year, month, day, hour, minutes, seconds };
}

/** Every value of `res` (body text and headers) free of `secret`. */
export function expectNoSecret(res: Res, secret: string) {
  expect(res.text ?? '').not.toContain(secret);
  for (const [k, v] of Object.entries(res.headers)) expect(`${k}: ${String(v)}`).not.toContain(secret);
}
