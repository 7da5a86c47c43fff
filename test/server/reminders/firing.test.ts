/**
 * Reminders firing on a controlled clock (issue 16): once at their time, not before, not twice,
 * across restarts; missed ones summed up once; snooze and dismiss; series, exceptions, deleted
 * events; DST between setting and firing; and the push channel.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get } from 'node:http';
import request from 'supertest';
import { createServer, silentLogger, type AlmanacServer } from '../../../electron/server';
import type { ReminderMessage } from '../../../electron/server/reminders/service';

const TOKEN = 'test-token-0123456789abcdef';
let clock = 0;
const at = (iso: string) => (clock = Date.parse(iso));
const dirs: string[] = [];
const open: AlmanacServer[] = [];

afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function newDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'almanac-remind-'));
  dirs.push(d);
  return d;
}

async function start(dataDir: string): Promise<AlmanacServer> {
  const s = await createServer({ dataDir, port: 0, log: silentLogger, token: TOKEN, now: () => new Date(clock), reminderTimer: false, announce: false });
  open.push(s);
  return s;
}

async function stop(s: AlmanacServer): Promise<void> {
  open.splice(open.indexOf(s), 1);
  await s.close();
}

const api = (s: AlmanacServer, method: 'get' | 'post' | 'patch' | 'delete', path: string) =>
  request(s.url)[method](`/cal/events/v1/${path}`).set('Authorization', `Bearer ${TOKEN}`);

async function mk(s: AlmanacServer, body: Record<string, unknown>) {
  const res = await api(s, 'post', 'events').send({ title: 'Dentist', timezone: 'UTC', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; title: string };
}

/** The titles and due times of what one turn of the timer told. */
const told = (messages: ReminderMessage[]) => messages.map((m) => (m.type === 'due' ? `${m.reminder.title} ${m.reminder.due_at}` : `missed ${m.count}`));

describe('a reminder fires once at its time', () => {
  it('not before, not twice, and not again after restarts before and after it fired', async () => {
    const dir = newDir();
    at('2031-03-01T09:00:00Z');
    let s = await start(dir);
    await mk(s, { start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00', reminders: ['-PT15M'] });
    expect(told((await s.reminders.tick()))).toEqual([]);
    await stop(s);

    at('2031-03-01T09:44:59Z');
    s = await start(dir);
    expect(told((await s.reminders.tick()))).toEqual([]);
    expect((await api(s, 'get', 'reminders/due')).body.reminders).toEqual([]);
    at('2031-03-01T09:45:00Z');
    expect(told((await s.reminders.tick()))).toEqual(['Dentist 2031-03-01T09:45:00Z']);
    expect(told((await s.reminders.tick()))).toEqual([]);
    await stop(s);

    at('2031-03-01T09:46:00Z');
    s = await start(dir);
    expect(told((await s.reminders.tick()))).toEqual([]);
    // Still listed as due, fired, until the user dismisses it.
    const due = (await api(s, 'get', 'reminders/due')).body.reminders;
    expect(due).toMatchObject([{ title: 'Dentist', fired: true, due_at: '2031-03-01T09:45:00Z', utc_start_date: '2031-03-01 10:00:00' }]);
  });

  it('one written a week or more ahead comes into the schedule as the clock moves, and fires', async () => {
    at('2031-03-01T09:00:00Z');
    const s = await start(newDir());
    await mk(s, { start_date: '2031-03-20 10:00:00', end_date: '2031-03-20 11:00:00', reminders: ['-PT1H'] });
    expect(told((await s.reminders.tick()))).toEqual([]);
    at('2031-03-20T09:00:00Z');
    expect(told((await s.reminders.tick()))).toEqual(['Dentist 2031-03-20T09:00:00Z']);
  });

  it('those that came due while the server was down are told once, as one summary, never one message each', async () => {
    const dir = newDir();
    at('2031-03-01T08:00:00Z');
    let s = await start(dir);
    for (let i = 0; i < 30; i++) await mk(s, { title: `Meeting ${i}`, start_date: `2031-03-01 10:${String(i).padStart(2, '0')}:00`, end_date: '2031-03-01 11:00:00', reminders: ['PT0S'] });
    await stop(s);
    at('2031-03-01T12:00:00Z');
    s = await start(dir);
    const first = (await s.reminders.tick());
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ type: 'missed', count: 30 });
    expect(first[0].type === 'missed' && first[0].reminders.map((r) => r.title)).toEqual(Array.from({ length: 20 }, (_, i) => `Meeting ${i + 10}`));
    expect((await s.reminders.tick())).toEqual([]);
    await stop(s);
    s = await start(dir);
    expect((await s.reminders.tick())).toEqual([]);
  });
});

describe('imported events', () => {
  it("an imported event's reminder already past does not ring; one still to come does, once", async () => {
    at('2031-03-01T12:00:00Z');
    const s = await start(newDir());
    const vevent = (uid: string, title: string, start: string) =>
      ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20310101T000000Z', `DTSTART:${start}`, 'DURATION:PT1H', `SUMMARY:${title}`, 'BEGIN:VALARM', 'ACTION:DISPLAY', 'TRIGGER:-PT15M', 'DESCRIPTION:x', 'END:VALARM', 'END:VEVENT'];
    const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...vevent('past@x', 'Yesterday', '20310301T110000Z'), ...vevent('next@x', 'Later', '20310301T140000Z'), 'END:VCALENDAR', ''].join('\r\n');
    const res = await api(s, 'post', 'import').set('Content-Type', 'text/calendar').send(ics);
    expect(res.body.created, JSON.stringify(res.body)).toBe(2);
    expect(told((await s.reminders.tick()))).toEqual([]);
    expect((await api(s, 'get', 'reminders/due')).body.reminders).toEqual([]);
    at('2031-03-01T13:45:00Z');
    expect(told((await s.reminders.tick()))).toEqual(['Later 2031-03-01T13:45:00Z']);
    // Importing the file again rings nothing again.
    await api(s, 'post', 'import').set('Content-Type', 'text/calendar').send(ics);
    expect(told((await s.reminders.tick()))).toEqual([]);
  });

  it('the same in a large import (settled in one pass), a past occurrence of an imported series included', async () => {
    at('2031-03-01T12:00:00Z');
    const s = await start(newDir());
    const alarm = ['BEGIN:VALARM', 'ACTION:DISPLAY', 'TRIGGER:-PT15M', 'DESCRIPTION:x', 'END:VALARM'];
    const vevent = (uid: string, title: string, start: string, extra: string[] = []) =>
      ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20310101T000000Z', `DTSTART:${start}`, 'DURATION:PT1H', `SUMMARY:${title}`, ...extra, 'END:VEVENT'];
    // Past 1,000 events an import settles its past firings in one pass instead of per event.
    const fillers = Array.from({ length: 1200 }, (_, i) => vevent(`fill-${i}@x`, `Filler ${i}`, '20310310T090000Z'));
    const ics = [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN',
      ...fillers.flat(),
      ...vevent('past@x', 'Yesterday', '20310301T110000Z', alarm),
      ...vevent('daily@x', 'Daily', '20310228T110000Z', ['RRULE:FREQ=DAILY;COUNT=3', ...alarm]),
      ...vevent('next@x', 'Later', '20310301T140000Z', alarm),
      'END:VCALENDAR', '',
    ].join('\r\n');
    const res = await api(s, 'post', 'import').set('Content-Type', 'text/calendar').send(ics);
    expect(res.body.created, JSON.stringify(res.body.errors)).toBeGreaterThan(1200);
    expect(told((await s.reminders.tick()))).toEqual([]);
    expect((await api(s, 'get', 'reminders/due')).body.reminders).toEqual([]);
    at('2031-03-01T13:45:00Z');
    expect(told((await s.reminders.tick()))).toEqual(['Later 2031-03-01T13:45:00Z']);
    at('2031-03-02T10:45:00Z');
    expect(told((await s.reminders.tick()))).toEqual(['Daily 2031-03-02T10:45:00Z']);
  });
});

describe('snooze and dismiss', () => {
  it('a snoozed reminder fires again when the snooze ends; a dismissed one never again, even after a restart', async () => {
    const dir = newDir();
    at('2031-03-01T09:00:00Z');
    let s = await start(dir);
    await mk(s, { start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00', reminders: ['-PT30M'] });
    at('2031-03-01T09:30:00Z');
    const [m] = (await s.reminders.tick());
    const key = m.type === 'due' ? m.reminder.key : '';
    const snoozed = await api(s, 'post', `reminders/${key}/snooze`).send({ for: '10m' });
    expect(snoozed.status, JSON.stringify(snoozed.body)).toBe(200);
    expect(snoozed.body).toMatchObject({ key, due_at: '2031-03-01T09:40:00Z', fired: false });
    expect((await api(s, 'get', 'reminders/due')).body.reminders).toEqual([]);
    at('2031-03-01T09:39:59Z');
    expect(told((await s.reminders.tick()))).toEqual([]);
    at('2031-03-01T09:40:00Z');
    expect(told((await s.reminders.tick()))).toEqual(['Dentist 2031-03-01T09:40:00Z']);
    // Until the start: due again at 10:00.
    expect((await api(s, 'post', `reminders/${key}/snooze`).send({ for: 'start' })).body.due_at).toBe('2031-03-01T10:00:00Z');
    await stop(s);
    at('2031-03-01T10:00:00Z');
    s = await start(dir);
    expect(told((await s.reminders.tick()))).toEqual(['Dentist 2031-03-01T10:00:00Z']);
    expect((await api(s, 'post', `reminders/${key}/dismiss`)).body).toEqual({ key, dismissed: true });
    expect((await api(s, 'get', 'reminders/due')).body.reminders).toEqual([]);
    await stop(s);
    at('2031-03-01T10:05:00Z');
    s = await start(dir);
    expect(told((await s.reminders.tick()))).toEqual([]);
    expect((await api(s, 'get', 'reminders/due')).body.reminders).toEqual([]);
  });

  it('refuses a snooze until a start that is past, an unknown length, and an unknown key, with clear errors', async () => {
    at('2031-03-01T09:00:00Z');
    const s = await start(newDir());
    await mk(s, { start_date: '2031-03-01 09:30:00', end_date: '2031-03-01 11:00:00', reminders: ['PT5M'] });
    at('2031-03-01T09:35:00Z');
    const [m] = (await s.reminders.tick());
    const key = m.type === 'due' ? m.reminder.key : '';
    const late = await api(s, 'post', `reminders/${key}/snooze`).send({ for: 'start' });
    expect(late.status).toBe(400);
    expect(late.body.data.params.for).toContain('until the start');
    expect((await api(s, 'post', `reminders/${key}/snooze`).send({ for: '3 days' })).body.code).toBe('rest_invalid_param');
    const missing = await api(s, 'post', 'reminders/nope/dismiss');
    expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 404, code: 'reminder-not-found' });
  });
});

describe('series, exceptions and deleted events', () => {
  it('a series fires once per occurrence; an occurrence with its own reminder fires by that one only', async () => {
    at('2031-03-01T00:00:00Z');
    const s = await start(newDir());
    const first = await mk(s, { title: 'Standup', start_date: '2031-03-02 09:00:00', end_date: '2031-03-02 09:15:00', recurrence: { rules: ['FREQ=DAILY;COUNT=3'] }, reminders: ['-PT10M'] });
    const others = (await api(s, 'get', 'events').query({ post_parent: first.id, start_date: '2031-03-01', end_date: '2031-03-31' })).body.events;
    const second = others.find((e: { start_date: string }) => e.start_date === '2031-03-03 09:00:00');
    expect((await api(s, 'patch', `events/${second.id}`).send({ reminders: ['-PT1H'], recurrence_scope: 'this' })).status).toBe(200);

    const fired: string[] = [];
    for (let t = Date.parse('2031-03-02T00:00:00Z'); t <= Date.parse('2031-03-05T00:00:00Z'); t += 5 * 60_000) {
      clock = t;
      fired.push(...told((await s.reminders.tick())));
    }
    expect(fired).toEqual(['Standup 2031-03-02T08:50:00Z', 'Standup 2031-03-03T08:00:00Z', 'Standup 2031-03-04T08:50:00Z']);
  });

  it('a whole-series edit that keeps the times does not ring what rang already', async () => {
    at('2031-03-02T08:50:00Z');
    const s = await start(newDir());
    const first = await mk(s, { title: 'Standup', start_date: '2031-03-02 09:00:00', end_date: '2031-03-02 09:15:00', recurrence: { rules: ['FREQ=DAILY;COUNT=3'] }, reminders: ['-PT10M'] });
    expect(told((await s.reminders.tick()))).toEqual(['Standup 2031-03-02T08:50:00Z']);
    await api(s, 'patch', `events/${first.id}`).send({ description: 'Room 2', recurrence_scope: 'all' });
    await api(s, 'patch', `events/${first.id}`).send({ reminders: ['-PT10M', '-PT1M'], recurrence_scope: 'all' });
    expect(told((await s.reminders.tick()))).toEqual([]);
    at('2031-03-02T08:59:00Z');
    expect(told((await s.reminders.tick()))).toEqual(['Standup 2031-03-02T08:59:00Z']);
  });

  it("a trashed or deleted event's reminder never fires, nor a trashed occurrence's", async () => {
    at('2031-03-01T00:00:00Z');
    const s = await start(newDir());
    const trashed = await mk(s, { title: 'Trashed', start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00', reminders: ['-PT10M'] });
    const gone = await mk(s, { title: 'Gone', start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00', reminders: ['-PT10M'] });
    const series = await mk(s, { title: 'Yoga', start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00', recurrence: { rules: ['FREQ=DAILY;COUNT=2'] }, reminders: ['-PT10M'] });
    await api(s, 'delete', `events/${trashed.id}`);
    await api(s, 'delete', `events/${gone.id}`);
    await api(s, 'delete', `events/${gone.id}`).query({ force: true });
    await api(s, 'delete', `events/${series.id}`).query({ recurrence_scope: 'this' });
    at('2031-03-01T09:50:00Z');
    expect(told((await s.reminders.tick()))).toEqual([]);
    at('2031-03-02T09:50:00Z');
    expect(told((await s.reminders.tick()))).toEqual(['Yoga 2031-03-02T09:50:00Z']);
  });
});

describe('time zones and DST', () => {
  it('a "1 day before" set before the change fires at the same wall time after it, and all-day ones at the local wall time', async () => {
    // Lisbon moves from UTC+0 to UTC+1 at 01:00 UTC on 2031-03-30.
    at('2031-03-20T12:00:00Z');
    const s = await start(newDir());
    await mk(s, { title: 'Timed', timezone: 'Europe/Lisbon', start_date: '2031-03-30 10:00:00', end_date: '2031-03-30 11:00:00', reminders: ['-P1D'] });
    await mk(s, { title: 'Two days before at nine', timezone: 'Europe/Lisbon', all_day: true, start_date: '2031-03-31', end_date: '2031-03-31', reminders: ['-P1DT15H'] });
    await mk(s, { title: 'Day before at nine', timezone: 'Europe/Lisbon', all_day: true, start_date: '2031-04-01', end_date: '2031-04-01', reminders: ['-PT15H'] });
    const fired: string[] = [];
    for (let t = Date.parse('2031-03-29T00:00:00Z'); t <= Date.parse('2031-04-01T00:00:00Z'); t += 5 * 60_000) {
      clock = t;
      fired.push(...told((await s.reminders.tick())));
    }
    // 10:00 in Lisbon on the 29th is 10:00 UTC (not 09:00, 24 h before a start at UTC+1); the
    // all-day ones ring at 09:00 in Lisbon: 09:00 UTC on the 29th, 08:00 UTC on the 31st.
    expect(fired).toEqual(['Two days before at nine 2031-03-29T09:00:00Z', 'Timed 2031-03-29T10:00:00Z', 'Day before at nine 2031-03-31T08:00:00Z']);
  });

  it('fires relative to the end when asked, and at an absolute time', async () => {
    at('2031-03-01T00:00:00Z');
    const s = await start(newDir());
    await mk(s, { title: 'End', start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 12:00:00', reminders: [{ trigger: '-PT5M', related: 'end' }] });
    await mk(s, { title: 'At', start_date: '2031-03-05 10:00:00', end_date: '2031-03-05 12:00:00', reminders: [{ at: '2031-03-01T07:30:00Z', action: 'audio' }] });
    const fired: string[] = [];
    for (let t = Date.parse('2031-03-01T07:00:00Z'); t <= Date.parse('2031-03-01T13:00:00Z'); t += 5 * 60_000) {
      clock = t;
      fired.push(...told((await s.reminders.tick())));
    }
    expect(fired).toEqual(['At 2031-03-01T07:30:00Z', 'End 2031-03-01T11:55:00Z']);
  });
});

describe('the push channel', () => {
  function listen(s: AlmanacServer, headers: Record<string, string>): Promise<{ status: number; events: string[]; close(): void; next(): Promise<string> }> {
    return new Promise((resolve, reject) => {
      const req = get(`${s.url}/cal/events/v1/reminders/stream`, { headers }, (res) => {
        const events: string[] = [];
        let buffer = '';
        let waiting: ((e: string) => void) | undefined;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (block.startsWith(':')) continue;
            events.push(block);
            if (waiting) {
              waiting(block);
              waiting = undefined;
            }
          }
        });
        resolve({
          status: res.statusCode ?? 0,
          events,
          close: () => req.destroy(),
          next: () => new Promise((done) => (events.length ? done(events.shift()!) : (waiting = (e) => (events.shift(), done(e))))),
        });
      });
      req.on('error', reject);
    });
  }

  it('needs the token, and sends a due reminder to each connected client', async () => {
    at('2031-03-01T09:00:00Z');
    const s = await start(newDir());
    const anonymous = await listen(s, {});
    expect(anonymous.status).toBe(401);
    anonymous.close();
    const a = await listen(s, { Authorization: `Bearer ${TOKEN}` });
    const b = await listen(s, { Authorization: `Bearer ${TOKEN}` });
    expect(a.status).toBe(200);
    await mk(s, { start_date: '2031-03-01 09:10:00', end_date: '2031-03-01 10:00:00', reminders: ['-PT10M'] });
    (await s.reminders.tick());
    for (const c of [a, b]) {
      const block = await c.next();
      expect(block).toMatch(/^event: due\ndata: /);
      expect(JSON.parse(block.split('\ndata: ')[1])).toMatchObject({ type: 'due', reminder: { title: 'Dentist', due_at: '2031-03-01T09:00:00Z' } });
    }
    a.close();
    b.close();
  });

  it('keeps the start-up summary for the first client that connects', async () => {
    const dir = newDir();
    at('2031-03-01T08:00:00Z');
    let s = await start(dir);
    await mk(s, { start_date: '2031-03-01 09:00:00', end_date: '2031-03-01 10:00:00', reminders: ['PT0S'] });
    await stop(s);
    at('2031-03-01T11:00:00Z');
    s = await start(dir);
    (await s.reminders.tick());
    const c = await listen(s, { Authorization: `Bearer ${TOKEN}` });
    const block = await c.next();
    expect(JSON.parse(block.split('\ndata: ')[1])).toMatchObject({ type: 'missed', count: 1, reminders: [{ title: 'Dentist' }] });
    c.close();
  });
});
