/** Helpers of the repeating-events API tests: make a series, read all of its events back. */
import { expect } from 'vitest';
import { Event } from '../../../shared/api/records';
import type { TestServer } from '../../helpers/server';
import { uniq } from './_support';

export type Ev = ReturnType<typeof Event.parse>;

export function seriesHelpers(server: () => TestServer) {
  return {
    async mkSeries(body: Record<string, unknown>): Promise<Ev> {
      const res = await server().api('post', 'events').send({ title: uniq('Class'), ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return Event.parse(res.body);
    },
    /** Every event of a series, first one included, in start order (all pages, of one status). */
    async seriesEvents(id: number, status = 'publish'): Promise<Ev[]> {
      const t = server();
      const out: Ev[] = [];
      const first = await t.api('get', `events/${id}`);
      if (first.status === 200 && first.body.status === status) out.push(Event.parse(first.body));
      for (let page = 1; ; page++) {
        const res = await t.api('get', 'events').query({ post_parent: id, per_page: 50, page, start_date: '2000-01-01', end_date: '2100-01-01', status });
        if (res.status === 404) break;
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        out.push(...res.body.events.map((e: unknown) => Event.parse(e)));
        if (page >= Number(res.headers['x-wp-totalpages'])) break;
      }
      return out.sort((a, b) => (a.start_date < b.start_date ? -1 : a.start_date > b.start_date ? 1 : a.id - b.id));
    },
  };
}

/** A download's body as text (an export), after checking it was served. */
export async function downloadText(server: TestServer, path: string, query: Record<string, string> = {}): Promise<string> {
  const res = await server
    .api('get', path)
    .query(query)
    .buffer(true)
    .parse((r, done) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (c: string) => (text += c));
      r.on('end', () => done(null, text));
    });
  expect(res.status).toBe(200);
  return res.body as string;
}
