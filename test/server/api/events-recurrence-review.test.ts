/**
 * Repeating events, the cases a review found wrong: whole-series moves and switches made from an
 * occurrence, and what is left in the database after trash and delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { downloadText, seriesHelpers, type Ev } from './_series';
import { mkTerm, uniq } from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const { mkSeries, seriesEvents } = seriesHelpers(() => t);

const sql = (q: string, ...args: unknown[]) => t.server.db.prepare(q).all(...args);
const one = (q: string, ...args: unknown[]) => t.server.db.prepare(q).pluck().get(...args);

describe('whole-series moves', () => {
  it('all from an occurrence moved on its own puts it where the user put it, and the others at the same time', async () => {
    const s = await mkSeries({ start_date: '2034-03-06 09:00:00', end_date: '2034-03-06 10:00:00', recurrence: 'FREQ=DAILY;COUNT=3' });
    const all = await seriesEvents(s.id);
    await t.api('patch', `events/${all[1].id}`).send({ start_date: '2034-03-07 14:00:00', end_date: '2034-03-07 15:00:00' });
    const res = await t.api('patch', `events/${all[1].id}`).query({ recurrence_scope: 'all' }).send({ start_date: '2034-03-07 15:00:00', end_date: '2034-03-07 16:00:00' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.start_date).toBe('2034-03-07 15:00:00');
    expect(starts(await seriesEvents(s.id))).toEqual(['2034-03-06 15:00:00', '2034-03-07 15:00:00', '2034-03-08 15:00:00']);
  });

  it('all from an occurrence moved to another day gives the others its new time and leaves it on its day', async () => {
    const s = await mkSeries({ start_date: '2034-03-13 09:00:00', end_date: '2034-03-13 10:00:00', recurrence: 'FREQ=WEEKLY;BYDAY=MO;COUNT=3' });
    const all = await seriesEvents(s.id);
    await t.api('patch', `events/${all[1].id}`).send({ start_date: '2034-03-21 14:00:00', end_date: '2034-03-21 15:00:00' });
    const res = await t.api('patch', `events/${all[1].id}`).query({ recurrence_scope: 'all' }).send({ start_date: '2034-03-21 15:00:00', end_date: '2034-03-21 16:00:00' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.is_exception).toBe(true);
    expect(res.body.recurrence.rules).toEqual(['FREQ=WEEKLY;BYDAY=MO;COUNT=3']);
    expect(starts(await seriesEvents(s.id))).toEqual(['2034-03-13 15:00:00', '2034-03-21 15:00:00', '2034-03-27 15:00:00']);
  });

  it('a weekly series on chosen weekdays moved to a later day and hour keeps its pattern on the new weekdays', async () => {
    const s = await mkSeries({ start_date: '2034-04-04 18:00:00', end_date: '2034-04-04 19:00:00', recurrence: 'FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4' });
    // Tuesday 18:00 → Wednesday 20:00: Tuesdays and Thursdays become Wednesdays and Fridays.
    const res = await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ start_date: '2034-04-05 20:00:00', end_date: '2034-04-05 21:00:00' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.recurrence.rules).toEqual(['FREQ=WEEKLY;BYDAY=WE,FR;COUNT=4']);
    expect(starts(await seriesEvents(s.id))).toEqual(['2034-04-05 20:00:00', '2034-04-07 20:00:00', '2034-04-12 20:00:00', '2034-04-14 20:00:00']);
  });

  it('a late-evening weekly series moved past midnight moves its weekdays too', async () => {
    const s = await mkSeries({ start_date: '2034-05-02 22:00:00', end_date: '2034-05-02 23:00:00', recurrence: 'FREQ=WEEKLY;BYDAY=TU;COUNT=2' });
    const res = await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ start_date: '2034-05-03 01:00:00', end_date: '2034-05-03 02:00:00' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(starts(await seriesEvents(s.id))).toEqual(['2034-05-03 01:00:00', '2034-05-10 01:00:00']);
  });

  it('switching a whole series to all-day keeps one event a date, the same ids, and the exception its title', async () => {
    const s = await mkSeries({ start_date: '2034-06-05 09:00:00', end_date: '2034-06-05 10:00:00', recurrence: 'FREQ=DAILY;COUNT=4' });
    const all = await seriesEvents(s.id);
    await t.api('patch', `events/${all[1].id}`).send({ title: 'Guest' });
    await t.api('delete', `events/${all[3].id}`);
    const res = await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ all_day: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.recurrence.exdates).toEqual(['20340608']);
    const after = await seriesEvents(s.id);
    expect(after.map((e) => [e.id, e.start_date, e.all_day, e.title])).toEqual([
      [all[0].id, '2034-06-05 00:00:00', true, s.title],
      [all[1].id, '2034-06-06 00:00:00', true, 'Guest'],
      [all[2].id, '2034-06-07 00:00:00', true, s.title],
    ]);
    const back = await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ all_day: false, start_date: '2034-06-05 08:00:00', end_date: '2034-06-05 09:00:00' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.recurrence.exdates).toEqual(['20340608T080000']);
    const timed = await seriesEvents(s.id);
    expect(timed.map((e) => [e.id, e.start_date, e.all_day, e.title])).toEqual([
      [all[0].id, '2034-06-05 08:00:00', false, s.title],
      [all[1].id, '2034-06-06 08:00:00', false, 'Guest'],
      [all[2].id, '2034-06-07 08:00:00', false, s.title],
    ]);
  });

  it('a zone change of the whole series keeps wall times in the new zone', async () => {
    const s = await mkSeries({ start_date: '2034-07-03 09:00:00', end_date: '2034-07-03 10:00:00', timezone: 'Europe/Lisbon', recurrence: 'FREQ=DAILY;COUNT=2' });
    const all = await seriesEvents(s.id);
    const res = await t.api('patch', `events/${all[1].id}`).query({ recurrence_scope: 'all' }).send({ timezone: 'America/New_York' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await seriesEvents(s.id);
    expect(after.map((e) => [e.start_date, e.timezone, e.utc_start_date])).toEqual([
      ['2034-07-03 09:00:00', 'America/New_York', '2034-07-03 13:00:00'],
      ['2034-07-04 09:00:00', 'America/New_York', '2034-07-04 13:00:00'],
    ]);
  });
});

const starts = (events: Ev[]) => events.map((e) => e.start_date);

describe('an occurrence changed on its own, then edited for more than itself', () => {
  it('all: the occurrence edited takes what the user typed, like every other', async () => {
    const s = await mkSeries({ start_date: '2035-02-05 09:00:00', end_date: '2035-02-05 10:00:00', recurrence: 'FREQ=DAILY;COUNT=3' });
    const all = await seriesEvents(s.id);
    await t.api('patch', `events/${all[1].id}`).send({ title: 'Guest' });
    await t.api('patch', `events/${s.id}`).send({ title: 'First' });
    const res = await t.api('patch', `events/${all[1].id}`).query({ recurrence_scope: 'all' }).send({ title: 'Advanced' });
    expect(res.body.title).toBe('Advanced');
    expect((await seriesEvents(s.id)).map((e) => e.title)).toEqual(['First', 'Advanced', 'Advanced']);
    await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ title: 'Basics' });
    expect((await seriesEvents(s.id)).map((e) => e.title)).toEqual(['Basics', 'Basics', 'Basics']);
  });

  it('following: the new series has the series values, its first event keeps its own title, and rows written later too', async () => {
    const s = await mkSeries({ title: 'Weekly', start_date: '2035-03-06 09:00:00', end_date: '2035-03-06 10:00:00', recurrence: 'FREQ=WEEKLY' });
    const [, second] = await seriesEvents(s.id);
    await t.api('patch', `events/${second.id}`).send({ title: 'Guest' });
    const res = await t.api('patch', `events/${second.id}`).query({ recurrence_scope: 'following' }).send({ start_date: '2035-03-13 11:00:00', end_date: '2035-03-13 12:00:00' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect([res.body.title, res.body.is_exception]).toEqual(['Guest', true]);
    // Rows written long after the split (a window in 2090), through the series' own list and any list.
    const far = await t.api('get', 'events').query({ post_parent: second.id, start_date: '2090-01-01', end_date: '2090-01-14' });
    expect(far.body.events.map((e: Ev) => [e.title, e.start_date.slice(11)])).toEqual([
      ['Weekly', '11:00:00'],
      ['Weekly', '11:00:00'],
    ]);
    const list = await t.api('get', 'events').query({ search: 'Weekly', start_date: '2090-01-01', end_date: '2090-01-14' });
    expect(list.body.events.map((e: Ev) => [e.title, e.series_id, e.start_date.slice(11)])).toEqual([
      ['Weekly', second.id, '11:00:00'],
      ['Weekly', second.id, '11:00:00'],
    ]);
  });
});

describe('this and following', () => {
  it('on a COUNT series from the second occurrence, then each half edited and trashed and restored on its own', async () => {
    const s = await mkSeries({ start_date: '2035-01-01 10:00:00', end_date: '2035-01-01 11:00:00', recurrence: { rules: ['FREQ=DAILY;COUNT=6'], exdates: ['20350104T100000'], rdates: ['20350110T100000'] } });
    const all = await seriesEvents(s.id);
    expect(all).toHaveLength(6);
    const res = await t.api('patch', `events/${all[1].id}`).query({ recurrence_scope: 'following' }).send({ title: 'Second half' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.recurrence).toEqual({ rules: ['FREQ=DAILY;COUNT=5'], rdates: ['20350110T100000'], exdates: ['20350104T100000'] });
    expect(starts(await seriesEvents(s.id))).toEqual(['2035-01-01 10:00:00']);
    const second = await seriesEvents(all[1].id);
    expect(second.map((e) => [e.start_date, e.title])).toEqual([
      ['2035-01-02 10:00:00', 'Second half'],
      ['2035-01-03 10:00:00', 'Second half'],
      ['2035-01-05 10:00:00', 'Second half'],
      ['2035-01-06 10:00:00', 'Second half'],
      ['2035-01-10 10:00:00', 'Second half'],
    ]);
    const moved = await t.api('patch', `events/${second[2].id}`).query({ recurrence_scope: 'all' }).send({ start_date: '2035-01-05 12:00:00', end_date: '2035-01-05 13:00:00' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(starts(await seriesEvents(all[1].id))).toEqual(['2035-01-02 12:00:00', '2035-01-03 12:00:00', '2035-01-05 12:00:00', '2035-01-06 12:00:00', '2035-01-10 12:00:00']);
    expect(starts(await seriesEvents(s.id))).toEqual(['2035-01-01 10:00:00']);

    await t.api('delete', `events/${second[3].id}`).query({ recurrence_scope: 'all' });
    expect(await seriesEvents(all[1].id)).toEqual([]);
    expect(starts(await seriesEvents(s.id))).toEqual(['2035-01-01 10:00:00']);
    await t.api('patch', `events/${all[1].id}`).send({ status: 'publish' });
    expect(await seriesEvents(all[1].id)).toHaveLength(5);
  });
});

describe('restoring from the trash', () => {
  it('one occurrence of a series deleted "this and following" comes back as part of the series, and stays through a move of all', async () => {
    const s = await mkSeries({ start_date: '2036-04-06 10:00:00', end_date: '2036-04-06 11:00:00', recurrence: 'FREQ=DAILY;COUNT=5' });
    const all = await seriesEvents(s.id);
    await t.api('delete', `events/${all[2].id}`).query({ recurrence_scope: 'following' });
    const back = await t.api('patch', `events/${all[3].id}`).send({ status: 'publish' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.recurrence).toEqual({ rules: ['FREQ=DAILY;COUNT=2'], rdates: ['20360409T100000'], exdates: [] });
    expect(starts(await seriesEvents(s.id))).toEqual(['2036-04-06 10:00:00', '2036-04-07 10:00:00', '2036-04-09 10:00:00']);
    await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ start_date: '2036-04-06 12:00:00', end_date: '2036-04-06 13:00:00' });
    const after = await seriesEvents(s.id);
    expect(after.map((e) => [e.id, e.start_date])).toEqual([
      [all[0].id, '2036-04-06 12:00:00'],
      [all[1].id, '2036-04-07 12:00:00'],
      [all[3].id, '2036-04-09 12:00:00'],
    ]);
  });
});

describe('what trash and delete leave behind', () => {
  it('a series whose first event was deleted for good, then trashed whole and emptied from the trash, leaves no row', async () => {
    const cat = await mkTerm(t, 'categories');
    const s = await mkSeries({ start_date: '2036-02-02 10:00:00', end_date: '2036-02-02 11:00:00', recurrence: 'FREQ=DAILY;COUNT=3', categories: [cat.id] });
    expect(one('SELECT count FROM terms WHERE id = ?', cat.id)).toBe(3);
    const all = await seriesEvents(s.id);
    await t.api('delete', `events/${s.id}`);
    await t.api('delete', `events/${s.id}`).query({ force: true });
    expect(one('SELECT count FROM terms WHERE id = ?', cat.id)).toBe(2);
    await t.api('delete', `events/${all[1].id}`).query({ recurrence_scope: 'all' });
    expect(one('SELECT count FROM terms WHERE id = ?', cat.id)).toBe(0);
    for (const e of all.slice(1)) expect((await t.api('delete', `events/${e.id}`).query({ force: true })).status).toBe(200);
    expect(sql('SELECT id, status FROM events WHERE id = ? OR parent_id = ?', s.id, s.id)).toEqual([]);
    expect(sql('SELECT id FROM event_series WHERE id = ?', s.id)).toEqual([]);
    expect(one('SELECT count(*) FROM events WHERE parent_id NOT IN (SELECT id FROM events)')).toBe(0);
    expect(one('SELECT count(*) FROM event_series WHERE id NOT IN (SELECT id FROM events)')).toBe(0);
  });

  it('a whole-series retitle is found by search and the old title no longer', async () => {
    const old = uniq('Oldtitle').replace(/\W/g, '');
    const fresh = uniq('Newtitle').replace(/\W/g, '');
    const s = await mkSeries({ title: old, start_date: '2036-03-02 10:00:00', end_date: '2036-03-02 11:00:00', recurrence: 'FREQ=DAILY;COUNT=3' });
    await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ title: fresh });
    expect(one('SELECT count(*) FROM events_search WHERE events_search MATCH ?', old)).toBe(0);
    expect(one('SELECT count(*) FROM events_search WHERE events_search MATCH ?', fresh)).toBe(3);
  });
});

describe('an EXDATE on the first date', () => {
  it('takes the first event out of lists and reads; the series stays editable through it, and comes back when the EXDATE goes', async () => {
    const rec = (exdates: string[]) => ({ rules: ['FREQ=DAILY;COUNT=3'], rdates: [], exdates });
    const s = await mkSeries({ start_date: '2036-04-07 10:00:00', end_date: '2036-04-07 11:00:00', timezone: 'UTC', recurrence: rec(['20360407T100000Z']) });
    expect((await t.api('get', `events/${s.id}`)).status).toBe(404);
    expect(starts(await seriesEvents(s.id))).toEqual(['2036-04-08 10:00:00', '2036-04-09 10:00:00']);
    // Only this occurrence: it is gone. The series: through its id, as every client knows it.
    expect((await t.api('patch', `events/${s.id}`).send({ title: 'Nope' })).status).toBe(404);
    const retitled = await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ title: 'Renamed', status: 'draft' });
    expect(retitled.status, JSON.stringify(retitled.body)).toBe(200);
    expect((await t.api('get', `events/${s.id}`)).status).toBe(404);
    expect((await seriesEvents(s.id, 'draft')).map((e) => e.title)).toEqual(['Renamed', 'Renamed']);
    const back = await t.api('patch', `events/${s.id}`).query({ recurrence_scope: 'all' }).send({ recurrence: rec([]) });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const first = await t.api('get', `events/${s.id}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ title: 'Renamed', status: 'draft', start_date: '2036-04-07 10:00:00' });
    expect(starts(await seriesEvents(s.id, 'draft'))).toEqual(['2036-04-07 10:00:00', '2036-04-08 10:00:00', '2036-04-09 10:00:00']);
  });

  it('a file whose master excludes its own start imports without that date', async () => {
    const uid = uniq('exstart');
    const file = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Google Inc//Google Calendar 70.9054//EN', 'BEGIN:VEVENT', `UID:${uid}`, 'SUMMARY:Standup',
      'DTSTART:20360505T090000Z', 'DTEND:20360505T093000Z', 'RRULE:FREQ=DAILY;COUNT=3', 'EXDATE:20360505T090000Z', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
    const res = await t.api('post', 'import').set('Content-Type', 'text/calendar').send(file);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = await t.api('get', 'events').query({ start_date: '2036-05-05', end_date: '2036-05-08', search: 'Standup' });
    expect(list.body.events.map((e: Ev) => e.start_date)).toEqual(['2036-05-06 09:00:00', '2036-05-07 09:00:00']);
  });
});

describe('files', () => {
  const summaries = (text: string) => text.split('\r\n').filter((l) => /^(BEGIN:VEVENT|SUMMARY|RECURRENCE-ID|CATEGORIES)/.test(l));

  it('a series whose first event was changed on its own exports the series values on the master, and comes back the same', async () => {
    const tag = uniq('Firstown').replace(/\W/g, '');
    const [a, b] = [await mkTerm(t, 'categories'), await mkTerm(t, 'categories')];
    const s = await mkSeries({ title: `${tag} series`, categories: [a.id], start_date: '2037-05-04 10:00:00', end_date: '2037-05-04 11:00:00', timezone: 'America/New_York', recurrence: 'FREQ=DAILY;COUNT=3' });
    await t.api('patch', `events/${s.id}`).send({ title: `${tag} first only`, categories: [b.id] });
    const before = await seriesEvents(s.id);
    const text = await downloadText(t, `export?search=${tag}`);
    expect(summaries(text)).toEqual([
      'BEGIN:VEVENT', `SUMMARY:${tag} series`, `CATEGORIES:${a.name}`,
      'BEGIN:VEVENT', 'RECURRENCE-ID;TZID=America/New_York:20370504T100000', `SUMMARY:${tag} first only`, `CATEGORIES:${b.name}`,
    ]);
    const other = await startTestServer();
    try {
      await other.api('post', 'import').set('Content-Type', 'text/calendar').send(text);
      const list = await other.api('get', 'events').query({ search: tag, per_page: 50, start_date: '2000-01-01', end_date: '2100-01-01' });
      const key = (e: Ev) => [e.title, e.start_date, e.is_exception, e.categories.map((c) => c.name)];
      expect(list.body.events.map(key)).toEqual(before.map(key));
      expect(summaries(await downloadText(other, `export?search=${tag}`))).toEqual(summaries(text));
    } finally {
      await other.close();
    }
  });
});

