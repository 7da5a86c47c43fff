/**
 * A write while another process holds the calendar's write lock (a command-line import on the
 * same file): it waits for the lock, and when the wait runs out it is answered 503 with nothing
 * written. Reads are answered meanwhile.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { startFeedServer } from '../../helpers/feed-server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ timeouts: { busyWait: 400 } });
});
afterAll(() => t?.close());

const event = (title: string) => ({ title, start_date: '2033-02-01 10:00:00', end_date: '2033-02-01 11:00:00' });
const titles = async () => (await t.api('get', 'events?start_date=2033-01-01&end_date=2033-12-31')).body.events.map((e: { title: string }) => e.title);

describe('a calendar held by another process', () => {
  it('answers a write 503 calendar_busy with Retry-After once the wait runs out, writes nothing, and still answers reads', async () => {
    const other = new Database(t.server.dbPath);
    other.exec('BEGIN IMMEDIATE');
    try {
      const started = Date.now();
      const res = await t.api('post', 'events').send(event('Held back'));
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('calendar_busy');
      expect(res.headers['retry-after']).toBe('5');
      expect(Date.now() - started).toBeGreaterThanOrEqual(350);
      expect((await t.api('get', 'events?start_date=2033-01-01&end_date=2033-12-31')).status).toBe(200);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(await titles()).toEqual([]);
    expect((await t.api('post', 'events').send(event('Afterwards'))).status).toBe(201);
    expect(await titles()).toEqual(['Afterwards']);
  });

  it('writes once the other process lets go within the wait', async () => {
    const other = new Database(t.server.dbPath);
    other.exec('BEGIN IMMEDIATE');
    setTimeout(() => {
      other.exec('COMMIT');
      other.close();
    }, 150);
    const res = await t.api('post', 'events').send(event('Waited'));
    expect(res.status).toBe(201);
    expect(await titles()).toContain('Waited');
  });

  it('answers a write that meets the lock after its network wait (a subscription) 503 too, not 500', async () => {
    const feed = await startFeedServer();
    feed.setFeed(['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//busy//EN', 'BEGIN:VEVENT', 'UID:busy@x', 'DTSTAMP:20330101T000000Z', 'DTSTART:20330301T100000Z', 'DTEND:20330301T110000Z', 'SUMMARY:Fed', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'));
    const other = new Database(t.server.dbPath);
    other.exec('BEGIN IMMEDIATE');
    try {
      const res = await t.api('post', 'subscriptions').send({ url: `${feed.url}/feed.ics` });
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.body.code).toBe('calendar_busy');
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      other.exec('ROLLBACK');
      other.close();
      await feed.close();
    }
    expect((await t.api('get', 'subscriptions')).body).toEqual([]);
  });
});
