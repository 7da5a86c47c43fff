/**
 * Small helpers of the list-query suite (test/server/queries). The error assertions and record
 * factories are the API suite's own (test/server/api/_support.ts).
 */
import { expect } from 'vitest';
import request from 'supertest';
import type { TestServer } from '../../helpers/server';
import { uniq, type Res } from '../api/_support';

export { expectError, expectInvalidParam, expectJson, mkEvent, mkOrganizer, mkTerm, mkVenue, uniq, type Res } from '../api/_support';

/** Ids of a list answer's items (`events`, `venues`, …). */
export const idsOf = (res: Res, key = 'events'): number[] => {
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
  return res.body[key].map((x: { id: number }) => x.id);
};

/** The query of a link, as an object. */
export const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

/**
 * A word no other test in the file uses, in letters only: a digit in it (the pid, say 1502) could
 * match a search for a number the test is about ("50").
 */
export const word = (prefix = 'w') =>
  uniq(prefix)
    .replace(/\W|_/g, '')
    .toLowerCase()
    .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]);


/** GET an absolute URL the server handed out (a `next_rest_url`…), with the token. */
export function follow(t: TestServer, absolute: string, token = true) {
  const u = new URL(absolute);
  expect(`${u.protocol}//${u.host}`).toBe(t.server.url);
  const r = request(t.server.url).get(u.pathname + u.search);
  return token ? r.set('Authorization', `Bearer ${t.server.token}`) : r;
}

/** Any request under a root such as `/es/wp-json` (the namespace is appended). */
export function at(t: TestServer, root: string, method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string) {
  return request(t.server.url)[method](`${root}/cal/events/v1/${path}`).set('Authorization', `Bearer ${t.server.token}`);
}

/** Great-circle distance in km (haversine, mean Earth radius), computed here independently. */
export function km(a: [number, number], b: [number, number]): number {
  const r = Math.PI / 180;
  const dLat = (b[0] - a[0]) * r;
  const dLng = (b[1] - a[1]) * r;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * r) * Math.cos(b[0] * r) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/**
 * Follows `next_rest_url` from a first page to the end, checking the totals and headers of every
 * page, and returns the ids in the order served.
 */
export async function crawl(t: TestServer, first: Res, key: string): Promise<number[]> {
  const out: number[] = [];
  let res = first;
  const total = res.body.total;
  const pages = res.body.total_pages;
  for (let n = 1; ; n++) {
    expect(res.status).toBe(200);
    expect([res.body.total, res.body.total_pages]).toEqual([total, pages]);
    expect([res.headers['x-cal-total'], res.headers['x-cal-totalpages']]).toEqual([String(total), String(pages)]);
    expect([res.headers['x-wp-total'], res.headers['x-wp-totalpages']]).toEqual([String(total), String(pages)]);
    out.push(...res.body[key].map((x: { id: number }) => x.id));
    if (!res.body.next_rest_url) {
      expect(n).toBe(Math.max(pages, 1));
      return out;
    }
    expect(n).toBeLessThan(pages);
    res = await follow(t, res.body.next_rest_url);
  }
}
