/**
 * Repeating events through the API: creating a series, what each occurrence says about it, edits
 * and deletes with each scope (and without one, as an old client sends them), trash and restore,
 * the horizon, and the errors a bad rule gets.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { downloadText, seriesHelpers, type Ev } from './_series';
import { expectInvalidParam, mkTerm, mkVenue, uniq } from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const { mkSeries, seriesEvents } = seriesHelpers(() => t);

const starts = (events: Ev[]) => events.map((e) => e.start_date);

describe('creating a series', () => {
  it('makes one event per occurrence, each an ordinary event that says which series it belongs to', async () => {
    const s = await mkSeries({
      start_date: '2031-03-04 18:00:00',
      end_date: '2031-03-04 19:30:00',
      timezone: 'America/New_York',
      recurrence: { rules: ['FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6'], exdates: ['20310313T180000'] },
    });
    expect(s.recurrence).toEqual({ rules: ['FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6'], rdates: [], exdates: ['20310313T180000'] });
    expect(s.series_id).toBe(s.id);
    expect(s.recurrence_id).toBe('2031-03-04 18:00:00');
    const all = await seriesEvents(s.id);
    // Six from COUNT, less the excluded Thursday; 09:00-style wall times kept across the DST change of 9 March.
    expect(starts(all)).toEqual(['2031-03-04 18:00:00', '2031-03-06 18:00:00', '2031-03-11 18:00:00', '2031-03-18 18:00:00', '2031-03-20 18:00:00']);
    expect(all.map((e) => e.end_date.slice(11))).toEqual(Array(5).fill('19:30:00'));
    expect(all[0].utc_start_date).toBe('2031-03-04 23:00:00');
    expect(all[2].utc_start_date).toBe('2031-03-11 22:00:00');
    for (const e of all.slice(1)) {
      expect(e.series_id).toBe(s.id);
      expect(e.recurrence_id).toBe(e.start_date);
      expect(e.title).toBe(s.title);
      expect(e.is_exception).toBe(false);
    }
  });

  it('lists occurrences with the calendar like any event, and single events say they are not in a series', async () => {
    const single = await t.api('post', 'events').send({ title: uniq('Once'), start_date: '2031-06-02 09:00:00', end_date: '2031-06-02 10:00:00' });
    expect(single.body.recurrence).toBeNull();
    expect(single.body.series_id).toBeNull();
    const s = await mkSeries({ start_date: '2031-06-01 09:00:00', end_date: '2031-06-01 10:00:00', recurrence: 'FREQ=DAILY;COUNT=3' });
    const res = await t.api('get', 'events').query({ start_date: '2031-06-01', end_date: '2031-06-03', per_page: 50 });
    const ours = res.body.events.filter((e: Ev) => e.series_id === s.id || e.id === single.body.id);
    expect(ours.map((e: Ev) => e.start_date)).toEqual(['2031-06-01 09:00:00', '2031-06-02 09:00:00', '2031-06-02 09:00:00', '2031-06-03 09:00:00']);
  });

  it('keeps an all-day series on dates', async () => {
    const s = await mkSeries({ start_date: '2031-01-31', end_date: '2031-01-31', all_day: true, timezone: 'Asia/Tokyo', recurrence: { rules: ['FREQ=MONTHLY;COUNT=4'] } });
    expect(starts(await seriesEvents(s.id))).toEqual(['2031-01-31 00:00:00', '2031-03-31 00:00:00', '2031-05-31 00:00:00', '2031-07-31 00:00:00']);
  });

  it('refuses bad rules with rest_invalid_param naming recurrence and saying what is wrong, and writes nothing', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ rules: ['FREQ=FORTNIGHTLY'] }, /FREQ=FORTNIGHTLY is not a frequency/],
      [{ rules: ['FREQ=WEEKLY;COUNT=0'] }, /COUNT must be a whole number of at least 1/],
      [{ rules: ['FREQ=WEEKLY;UNTIL=20300101T000000Z'] }, /UNTIL=20300101T000000Z is before the event's start/],
      [{ rules: ['FREQ=MINUTELY'] }, /more than 24 occurrences a day/],
      [{ rules: ['FREQ=DAILY'], exdates: ['tomorrow'] }, /exdates: "tomorrow" is not a date/],
      [{ rules: [] }, /at least one rule/],
      [{ rule: 'FREQ=DAILY' }, /"rule" is not one of/],
    ];
    const before = await t.api('get', 'events').query({ per_page: 1, start_date: '2000-01-01', end_date: '2100-01-01' });
    for (const [recurrence, message] of cases) {
      const res = await t.api('post', 'events').send({ title: 'Bad', start_date: '2031-03-04 18:00:00', end_date: '2031-03-04 19:00:00', recurrence });
      expectInvalidParam(res, 'recurrence');
      expect(res.body.data.details.recurrence.message, JSON.stringify(recurrence)).toMatch(message);
    }
    const after = await t.api('get', 'events').query({ per_page: 1, start_date: '2000-01-01', end_date: '2100-01-01' });
    expect(after.headers['x-wp-total']).toBe(before.headers['x-wp-total']);
  });
});

describe('editing one occurrence', () => {
  it('an old client that PATCHes an occurrence without a scope changes that occurrence only, which becomes an exception', async () => {
    const s = await mkSeries({ start_date: '2031-04-01 10:00:00', end_date: '2031-04-01 11:00:00', recurrence: 'FREQ=DAILY;COUNT=4' });
    const [, second] = await seriesEvents(s.id);
    const res = await t.api('patch', `events/${second.id}`).send({ title: 'Moved class', start_date: '2031-04-02 15:00:00', end_date: '2031-04-02 16:00:00' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.is_exception).toBe(true);
    expect(res.body.recurrence_id).toBe('2031-04-02 10:00:00');
    const all = await seriesEvents(s.id);
    expect(all.map((e) => [e.start_date, e.title])).toEqual([
      ['2031-04-01 10:00:00', s.title],
      ['2031-04-02 15:00:00', 'Moved class'],
      ['2031-04-03 10:00:00', s.title],
      ['2031-04-04 10:00:00', s.title],
    ]);
  });

  it('deleting an occurrence (no scope) trashes it and excludes its date; restoring it brings it back', async () => {
    const s = await mkSeries({ start_date: '2031-04-10 10:00:00', end_date: '2031-04-10 11:00:00', recurrence: 'FREQ=DAILY;COUNT=3' });
    const [, second] = await seriesEvents(s.id);
    const del = await t.api('delete', `events/${second.id}`);
    expect(del.status).toBe(200);
    expect(del.body.status).toBe('trash');
    expect((await t.api('get', `events/${s.id}`)).body.recurrence.exdates).toEqual(['20310411T100000']);
    expect(starts(await seriesEvents(s.id))).toEqual(['2031-04-10 10:00:00', '2031-04-12 10:00:00']);
    const restored = await t.api('patch', `events/${second.id}`).send({ status: 'publish' });
    expect(restored.status).toBe(200);
    expect(restored.body.recurrence.exdates).toEqual([]);
    expect(starts(await seriesEvents(s.id))).toEqual(['2031-04-10 10:00:00', '2031-04-11 10:00:00', '2031-04-12 10:00:00']);
  });

  it('deleting an occurrence for good keeps its date excluded and leaves no row', async () => {
    const s = await mkSeries({ start_date: '2031-04-20 10:00:00', end_date: '2031-04-20 11:00:00', recurrence: 'FREQ=DAILY;COUNT=3' });
    const [first] = await seriesEvents(s.id);
    await t.api('delete', `events/${first.id}`);
    const gone = await t.api('delete', `events/${first.id}`).query({ force: true });
    expect(gone.status).toBe(200);
    expect((await t.api('get', `events/${first.id}`)).status).toBe(404);
    const rest = await seriesEvents(s.id);
    expect(starts(rest)).toEqual(['2031-04-21 10:00:00', '2031-04-22 10:00:00']);
    expect(rest[0].recurrence?.exdates).toEqual(['20310420T100000']);
  });
});

describe('editing the whole series', () => {
  it('a new title and venue reach every occurrence but the ones changed on their own keep their change', async () => {
    const venue = await mkVenue(t);
    const cat = await mkTerm(t, 'categories');
    const s = await mkSeries({ start_date: '2031-05-05 09:00:00', end_date: '2031-05-05 10:00:00', recurrence: 'FREQ=WEEKLY;COUNT=4' });
    const [, second, third] = await seriesEvents(s.id);
    await t.api('patch', `events/${second.id}`).send({ title: 'Guest teacher' });
    const res = await t.api('patch', `events/${third.id}`).query({ recurrence_scope: 'all' }).send({ title: 'Yoga', venue: venue.id, categories: [cat.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const all = await seriesEvents(s.id);
    expect(all.map((e) => e.title)).toEqual(['Yoga', 'Guest teacher', 'Yoga', 'Yoga']);
    expect(all.map((e) => (Array.isArray(e.venue) ? null : e.venue.id))).toEqual(Array(4).fill(venue.id));
    expect(all.map((e) => e.categories.map((c) => c.id))).toEqual(Array(4).fill([cat.id]));
  });

  it('moving the time of all moves every occurrence not moved on its own, in wall time, and keeps the exceptions attached', async () => {
    const s = await mkSeries({ start_date: '2031-03-03 09:00:00', end_date: '2031-03-03 10:00:00', timezone: 'Europe/Lisbon', recurrence: 'FREQ=WEEKLY;COUNT=5' });
    const all = await seriesEvents(s.id);
    await t.api('patch', `events/${all[1].id}`).send({ start_date: '2031-03-11 14:00:00', end_date: '2031-03-11 15:00:00' });
    await t.api('delete', `events/${all[3].id}`);
    const res = await t.api('patch', `events/${all[2].id}`).send({ recurrence_scope: 'all', start_date: '2031-03-17 11:30:00', end_date: '2031-03-17 13:00:00' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await seriesEvents(s.id);
    expect(after.map((e) => [e.id, e.start_date, e.end_date])).toEqual([
      [all[0].id, '2031-03-03 11:30:00', '2031-03-03 13:00:00'],
      [all[1].id, '2031-03-11 14:00:00', '2031-03-11 15:00:00'],
      [all[2].id, '2031-03-17 11:30:00', '2031-03-17 13:00:00'],
      [all[4].id, '2031-03-31 11:30:00', '2031-03-31 13:00:00'],
    ]);
    // Lisbon moves to summer time on 30 March: the wall time stays, the UTC time changes.
    expect(after[3].utc_start_date).toBe('2031-03-31 10:30:00');
    expect(after[0].recurrence?.exdates).toEqual(['20310324T113000']);
  });

  it('changing the rule keeps the ids of the occurrences it still makes', async () => {
    const s = await mkSeries({ start_date: '2031-07-01 08:00:00', end_date: '2031-07-01 09:00:00', recurrence: 'FREQ=DAILY;COUNT=6' });
    const before = await seriesEvents(s.id);
    const res = await t.api('patch', `events/${s.id}`).send({ recurrence_scope: 'all', recurrence: { rules: ['FREQ=DAILY;INTERVAL=2;COUNT=4'] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await seriesEvents(s.id);
    expect(starts(after)).toEqual(['2031-07-01 08:00:00', '2031-07-03 08:00:00', '2031-07-05 08:00:00', '2031-07-07 08:00:00']);
    expect(after.slice(0, 3).map((e) => e.id)).toEqual([before[0].id, before[2].id, before[4].id]);
  });

  it('changing the rule of one occurrence without scope all is refused', async () => {
    const s = await mkSeries({ start_date: '2031-07-10 08:00:00', end_date: '2031-07-10 09:00:00', recurrence: 'FREQ=DAILY;COUNT=2' });
    const res = await t.api('patch', `events/${s.id}`).send({ recurrence: 'FREQ=WEEKLY' });
    expectInvalidParam(res, 'recurrence_scope');
  });

  it('recurrence null with scope all leaves the first event alone', async () => {
    const s = await mkSeries({ start_date: '2031-07-20 08:00:00', end_date: '2031-07-20 09:00:00', recurrence: 'FREQ=DAILY;COUNT=3' });
    const res = await t.api('patch', `events/${s.id}`).send({ recurrence_scope: 'all', recurrence: null });
    expect(res.status).toBe(200);
    expect(res.body.recurrence).toBeNull();
    const list = await t.api('get', 'events').query({ post_parent: s.id, start_date: '2031-07-01', end_date: '2031-08-01' });
    expect(list.body.events ?? []).toEqual([]);
  });
});

describe('this and following', () => {
  it('splits the series: the old one ends before the occurrence, a new one starts at it with the change', async () => {
    const s = await mkSeries({ start_date: '2031-09-01 18:00:00', end_date: '2031-09-01 19:00:00', recurrence: 'FREQ=WEEKLY;UNTIL=20311001T000000Z' });
    const all = await seriesEvents(s.id);
    expect(all).toHaveLength(5);
    const res = await t.api('patch', `events/${all[2].id}`).send({ recurrence_scope: 'following', title: 'Advanced class', start_date: '2031-09-15 19:00:00', end_date: '2031-09-15 20:00:00' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.id).toBe(all[2].id);
    expect(res.body.series_id).toBe(all[2].id);
    const old = await seriesEvents(s.id);
    expect(old.map((e) => [e.start_date, e.title])).toEqual([
      ['2031-09-01 18:00:00', s.title],
      ['2031-09-08 18:00:00', s.title],
    ]);
    expect(old[0].recurrence?.rules[0]).toMatch(/UNTIL=20310908T/);
    const next = await seriesEvents(all[2].id);
    expect(next.map((e) => [e.start_date, e.title])).toEqual([
      ['2031-09-15 19:00:00', 'Advanced class'],
      ['2031-09-22 19:00:00', 'Advanced class'],
      ['2031-09-29 19:00:00', 'Advanced class'],
    ]);
  });

  it('deleting this and following ends the series before it', async () => {
    const s = await mkSeries({ start_date: '2031-10-01 18:00:00', end_date: '2031-10-01 19:00:00', recurrence: 'FREQ=DAILY;COUNT=5' });
    const all = await seriesEvents(s.id);
    const res = await t.api('delete', `events/${all[2].id}`).query({ recurrence_scope: 'following' });
    expect(res.status).toBe(200);
    const left = await seriesEvents(s.id);
    expect(starts(left)).toEqual(['2031-10-01 18:00:00', '2031-10-02 18:00:00']);
    expect(left[0].recurrence?.rules).toEqual(['FREQ=DAILY;COUNT=2']);
  });
});

describe('the whole series in the trash', () => {
  it('trashing all and restoring the first event brings every occurrence back; deleting it for good leaves no rows', async () => {
    const s = await mkSeries({ start_date: '2031-11-01 18:00:00', end_date: '2031-11-01 19:00:00', recurrence: 'FREQ=DAILY;COUNT=4' });
    const all = await seriesEvents(s.id);
    await t.api('delete', `events/${all[1].id}`); // one deleted on its own first
    const res = await t.api('delete', `events/${all[2].id}`).query({ recurrence_scope: 'all' });
    expect(res.status).toBe(200);
    expect(await seriesEvents(s.id)).toEqual([]);
    // The first event is read as trashed (403), the three others are listed in the trash.
    expect((await t.api('get', `events/${s.id}`)).status).toBe(403);
    expect((await seriesEvents(s.id, 'trash')).length).toBe(3);
    await t.api('patch', `events/${s.id}`).send({ status: 'publish' });
    expect(starts(await seriesEvents(s.id))).toEqual(['2031-11-01 18:00:00', '2031-11-03 18:00:00', '2031-11-04 18:00:00']);

    await t.api('delete', `events/${s.id}`).query({ recurrence_scope: 'all' });
    const gone = await t.api('delete', `events/${s.id}`).query({ force: true });
    expect(gone.status).toBe(200);
    for (const e of all) expect((await t.api('get', `events/${e.id}`)).status).toBe(404);
  });
});

describe('the horizon', () => {
  it('an open-ended series shows its occurrences in a window far beyond the horizon without writing them', async () => {
    const s = await mkSeries({ start_date: '2026-12-01 07:00:00', end_date: '2026-12-01 07:30:00', recurrence: 'FREQ=DAILY' });
    const res = await t.api('get', 'events').query({ start_date: '2090-03-01', end_date: '2090-03-31', per_page: 50 });
    expect(res.status).toBe(200);
    const ours = res.body.events.filter((e: Ev) => e.series_id === s.id);
    expect(ours).toHaveLength(31);
    expect(ours[0].start_date).toBe('2090-03-01 07:00:00');
    // Rows: the horizon's (about two years) only; that month's occurrences come from the series
    // (issue 27: a far month answers as fast as a near one), never the 63 years between.
    const rows = t.server.store.db.prepare('SELECT count(*) FROM events WHERE parent_id = ? AND start_local >= ? AND start_local < ?').pluck();
    expect(rows.get(s.id, '2030-01-01', '2090-03-01')).toBe(0);
    expect(rows.get(s.id, '2090-03-01', '2090-04-01')).toBe(0);
    expect(rows.get(s.id, '2026-01-01', '2100-01-01')).toBeLessThan(800);
  });
});

describe('files', () => {
  const download = (path: string) => downloadText(t, path);

  it('an exported series (moved, retitled and deleted occurrences, all-day, another zone) imports back as the same series', async () => {
    const tag = uniq('Roundtrip').replace(/\W/g, '');
    const weekly = await mkSeries({ title: `${tag} weekly`, start_date: '2032-01-05 09:00:00', end_date: '2032-01-05 10:00:00', timezone: 'America/New_York', recurrence: 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=8' });
    const allDay = await mkSeries({ title: `${tag} all-day`, start_date: '2032-01-31', end_date: '2032-01-31', all_day: true, recurrence: 'FREQ=MONTHLY;COUNT=4' });
    const occ = await seriesEvents(weekly.id);
    await t.api('patch', `events/${occ[1].id}`).send({ start_date: '2032-01-07 15:00:00', end_date: '2032-01-07 16:30:00' });
    await t.api('patch', `events/${occ[2].id}`).send({ title: `${tag} guest` });
    await t.api('delete', `events/${occ[3].id}`);
    const before = [...(await seriesEvents(weekly.id)), ...(await seriesEvents(allDay.id))];

    const text = await download(`export?search=${tag}`);
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(4); // two masters, two changed occurrences
    expect(text).toContain('RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=8');
    expect(text).toMatch(/EXDATE;TZID=America\/New_York:20320114T090000/);
    expect(text).toMatch(/RECURRENCE-ID;TZID=America\/New_York:20320107T090000/);
    expect(text).toContain('RRULE:FREQ=MONTHLY;COUNT=4');

    const other = await startTestServer();
    try {
      const imported = await other.api('post', 'import').set('Content-Type', 'text/calendar').send(text);
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(imported.body).toMatchObject({ created: 4, skipped: 0, errors: [] });
      const list = await other.api('get', 'events').query({ search: tag, per_page: 50, start_date: '2000-01-01', end_date: '2100-01-01' });
      const key = (e: Ev) => [e.title, e.start_date, e.end_date, e.timezone, e.all_day, e.utc_start_date, e.is_exception, e.recurrence_id].join('|');
      expect(list.body.events.map(key).sort()).toEqual(before.map(key).sort());
      // Importing the same file again changes nothing and duplicates nothing.
      const again = await other.api('post', 'import').set('Content-Type', 'text/calendar').send(text);
      expect(again.body).toMatchObject({ created: 0, updated: 4 });
      const after = await other.api('get', 'events').query({ search: tag, per_page: 50, start_date: '2000-01-01', end_date: '2100-01-01' });
      expect(after.body.events.map((e: Ev) => e.id)).toEqual(list.body.events.map((e: Ev) => e.id));
    } finally {
      await other.close();
    }
  });

  it('a JSON backup carries series, their exceptions and exclusions, and restores them whole', async () => {
    const s = await mkSeries({ start_date: '2033-02-01 08:00:00', end_date: '2033-02-01 09:00:00', recurrence: { rules: ['FREQ=DAILY;COUNT=5'], exdates: ['20330203T080000'] } });
    const occ = await seriesEvents(s.id);
    await t.api('patch', `events/${occ[1].id}`).send({ title: 'Changed' });
    const before = await seriesEvents(s.id);
    const backup = await download('export?format=json');
    const other = await startTestServer();
    try {
      const restored = await other.api('post', 'import?format=json').set('Content-Type', 'application/json').send(backup);
      expect(restored.status, JSON.stringify(restored.body)).toBe(200);
      const res = await other.api('get', 'events').query({ post_parent: s.id, per_page: 50, start_date: '2000-01-01', end_date: '2100-01-01' });
      const first = await other.api('get', `events/${s.id}`);
      expect([first.body, ...res.body.events].map((e: Ev) => [e.id, e.title, e.start_date, e.is_exception, e.recurrence])).toEqual(
        before.map((e) => [e.id, e.title, e.start_date, e.is_exception, e.recurrence]),
      );
      // The restored series is a series: a change to all of it still spares the exception.
      await other.api('patch', `events/${s.id}`).send({ recurrence_scope: 'all', title: 'Renamed' });
      const titles = (await other.api('get', 'events').query({ post_parent: s.id, per_page: 50, start_date: '2000-01-01', end_date: '2100-01-01' })).body.events.map((e: Ev) => e.title);
      expect(titles).toEqual(['Changed', 'Renamed', 'Renamed']);
    } finally {
      await other.close();
    }
  });
});

describe('iCalendar files of other programs, through Almanac and back', () => {
  const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures/ics', name));
  const everything = async (server: TestServer) => {
    const out: Ev[] = [];
    for (let page = 1; ; page++) {
      const res = await server.api('get', 'events').query({ per_page: 50, page, start_date: '1990-01-01', end_date: '2040-01-01', status: 'publish,draft,private' });
      if (res.status === 404) break;
      out.push(...res.body.events);
      if (page >= Number(res.headers['x-wp-totalpages'])) break;
    }
    return out;
  };
  const key = (e: Ev) =>
    [e.title, e.start_date, e.end_date, e.timezone, e.all_day, e.utc_start_date, e.description, Array.isArray(e.venue) ? '' : e.venue.venue, e.categories.map((c) => c.name).join(','), e.is_exception].join('|');

  it.each(['google.ics', 'outlook.ics', 'thunderbird.ics', 'apple.ics', 'icaljs/recur_instances.ics', 'icaljs/multiple_rrules.ics', 'icaljs/google_birthday.ics'])(
    '%s: import → export → import keeps every occurrence, its times and fields',
    async (name) => {
      const a = await startTestServer();
      const b = await startTestServer();
      try {
        const first = await a.api('post', 'import').set('Content-Type', 'text/calendar').send(fixture(name));
        expect(first.status, JSON.stringify(first.body)).toBe(200);
        const before = await everything(a);
        expect(before.length).toBeGreaterThan(0);
        const exported = await downloadText(a, 'export', { status: 'publish,draft,private' });
        const second = await b.api('post', 'import').set('Content-Type', 'text/calendar').send(exported);
        expect(second.status, JSON.stringify(second.body)).toBe(200);
        expect(second.body.errors).toEqual([]);
        const after = await everything(b);
        expect(after.map(key).sort()).toEqual(before.map(key).sort());
      } finally {
        await a.close();
        await b.close();
      }
    },
  );
});
