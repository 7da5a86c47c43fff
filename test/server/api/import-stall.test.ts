/**
 * One file must not hold the server: `DURATION:P999999999999999999W` kept an import busy for
 * minutes, and every other client waited for it. Other clients' list requests, sent while that file
 * is being imported, are answered within 100 ms, and the file is refused naming its line. The same
 * holds for a large good file sent as an ordinary import (not `background`): it is read and
 * written off the server's thread.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { bigCalendar } from '../../helpers/big-calendar';


/**
 * Asks for a short list, one request after another (`pauseMs` apart), while `busy()` holds; answers
 * how long each took (`most` requests at the most). Each must succeed.
 */
async function listWhile(busy: () => boolean, pauseMs: number, most = Infinity): Promise<number[]> {
  const latencies: number[] = [];
  do {
    const started = performance.now();
    const res = await fetch(`${s.server.url}/cal/events/v1/events?per_page=5`, { headers: { Authorization: `Bearer ${s.server.token}` } });
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    expect(res.status).toBe(200);
    if (pauseMs) await new Promise((ok) => setTimeout(ok, pauseMs));
  } while (busy() && latencies.length < most);
  return latencies;
}

const stalling = readFileSync(join(import.meta.dirname, '../../fixtures/ics/python-icalendar/calendars/invalid_duration.ics'));

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('a file that stalled the server', () => {
  it('is refused at once, and a list request made during its import answers in under 100 ms', async () => {
    const headers = { Authorization: `Bearer ${s.server.token}` };
    const api = `${s.server.url}/cal/events/v1/`;
    const send = () =>
      fetch(`${api}import?filename=invalid_duration.ics`, { method: 'POST', headers: { ...headers, 'Content-Type': 'text/calendar' }, body: stalling });
    // Warm up: the first list of a fresh server compiles its statements, the first import its code
    // (what is measured is the file's work, not the first run of the importer).
    expect((await fetch(`${api}events`, { headers })).status).toBe(200);
    expect((await send()).status).toBe(400);
    const before = s.snapshot();

    /** One import of the file, with lists asked for one after another while it is on its way or running. */
    const round = async () => {
      let importing = true;
      const imported = send().then(async (res) => {
        importing = false;
        return { status: res.status, body: (await res.json()) as { message: string; data: { errors: Array<{ line: number; message: string }> } } };
      });
      const latencies = await listWhile(() => importing, 0, 50);
      const { status, body } = await imported;
      expect(status).toBe(400);
      expect(body.data.errors).toEqual([{ line: 8, message: 'Line 8: the duration "P999999999999999999W" is longer than 100 years, which no event lasts.' }]);
      expect(body.message).toContain('Line 8');
      return Math.max(...latencies);
    };
    // The best of a few rounds: this machine is shared, and a round can lose the processor to other
    // work; a file that holds the server fails every round.
    const slowest: number[] = [];
    while (slowest.length < 5 && !slowest.some((ms) => ms < 100)) slowest.push(await round());
    expect(Math.min(...slowest), `slowest list answer of each round: ${slowest.map((ms) => ms.toFixed(0)).join(', ')} ms`).toBeLessThan(100);
    expect(s.snapshot()).toEqual(before);
  });
});

describe('a large file sent as an ordinary import', () => {
  it('is imported whole, and list requests made meanwhile answer in under 100 ms', { timeout: 120_000 }, async () => {
    const headers = { Authorization: `Bearer ${s.server.token}` };
    const api = `${s.server.url}/cal/events/v1/`;
    const events = 15_000;
    const file = bigCalendar(events, 'Big');
    const total = async () => Number((await fetch(`${api}events?start_date=2000-01-01&end_date=2100-01-01&search=Big&per_page=1`, { headers })).headers.get('x-cal-total'));
    const before = await total();
    // On the server's thread this import took seconds, and every list below waited for all of it.
    let importing = true;
    const imported = fetch(`${api}import`, { method: 'POST', headers: { ...headers, 'Content-Type': 'text/calendar' }, body: file }).then(async (res) => {
      importing = false;
      return { status: res.status, body: (await res.json()) as { created: number; updated: number } };
    });
    const latencies = await listWhile(() => importing, 20);
    const { status, body } = await imported;
    expect(status).toBe(200);
    expect(body.created + body.updated).toBe(events);
    expect(await total()).toBe(before + events);
    // Lists kept coming while it ran, and (the median, on a shared machine) quickly.
    expect(latencies.length).toBeGreaterThan(10);
    const median = [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length / 2)];
    expect(median, `list answers during the import: ${latencies.map((ms) => ms.toFixed(0)).join(', ')} ms`).toBeLessThan(100);
  });
});
