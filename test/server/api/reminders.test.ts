/**
 * Reminders through the API (issue 16): the `reminders` field as written and read, its errors,
 * how occurrences of a series inherit it and own it after a "this" edit, and the settings' defaults.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Event } from '../../../shared/api/records';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectInvalidParam, mkEvent, uniq } from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

type Ev = ReturnType<typeof Event.parse>;

async function occurrences(seriesId: number): Promise<Ev[]> {
  const first = await t.api('get', `events/${seriesId}`);
  const res = await t.api('get', 'events').query({ post_parent: seriesId, per_page: 50, start_date: '2000-01-01', end_date: '2100-01-01' });
  expect(res.status).toBe(200);
  return [Event.parse(first.body), ...res.body.events.map((e: unknown) => Event.parse(e))].sort((a, b) => a.start_date.localeCompare(b.start_date));
}

async function weekly(reminders: unknown): Promise<Ev[]> {
  const res = await t.api('post', 'events').send({
    title: uniq('Class'),
    start_date: '2031-03-04 18:00:00',
    end_date: '2031-03-04 19:00:00',
    timezone: 'Europe/Lisbon',
    recurrence: { rules: ['FREQ=WEEKLY;COUNT=4'] },
    reminders,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return occurrences(res.body.id);
}

describe('the reminders field', () => {
  it('stores what a script writes, in one canonical form, and reads it back', async () => {
    const e = await mkEvent(t, {
      reminders: [
        '-PT15M',
        { action: 'AUDIO', trigger: '-pt5m', related: 'end' },
        { action: 'display', trigger: '-P1DT0H', repeat: 2, repeat_every: 'PT300S' },
        { action: 'email', at: '20310509T080000Z', description: 'Bring the slides', summary: 'Talk', attendees: ['mailto:me@example.org'] },
      ],
    });
    const expected = [
      { action: 'display', trigger: '-PT15M' },
      { action: 'audio', trigger: '-PT5M', related: 'end' },
      { action: 'display', trigger: '-P1D', repeat: 2, repeat_every: 'PT5M' },
      { action: 'email', at: '2031-05-09T08:00:00Z', description: 'Bring the slides', summary: 'Talk', attendees: ['me@example.org'] },
    ];
    expect(e.reminders).toEqual(expected);
    const read = await t.api('get', `events/${e.id}`);
    expect(Event.parse(read.body).reminders).toEqual(expected);
  });

  it('is replaced whole by an update, emptied by [] or null, and left alone when not sent', async () => {
    const e = await mkEvent(t, { reminders: ['-PT10M'] });
    const kept = await t.api('patch', `events/${e.id}`).send({ title: uniq('Renamed') });
    expect(kept.body.reminders).toEqual([{ action: 'display', trigger: '-PT10M' }]);
    const changed = await t.api('patch', `events/${e.id}`).send({ reminders: [{ trigger: '-PT1H' }, { trigger: '-PT1H' }] });
    // The same reminder twice would ring twice at once: kept once.
    expect(changed.body.reminders).toEqual([{ action: 'display', trigger: '-PT1H' }]);
    expect((await t.api('patch', `events/${e.id}`).send({ reminders: null })).body.reminders).toEqual([]);
    expect((await t.api('patch', `events/${e.id}`).send({ reminders: ['PT0S'] })).body.reminders).toEqual([{ action: 'display', trigger: 'PT0S' }]);
    expect((await t.api('patch', `events/${e.id}`).send({ reminders: [] })).body.reminders).toEqual([]);
  });

  it.each([
    ['an unknown action', [{ action: 'procedure', trigger: '-PT5M' }], 'display, audio or email'],
    ['a trigger that is no duration', [{ trigger: '15 minutes' }], 'RFC 5545 duration'],
    ['both a trigger and an at time', [{ trigger: '-PT5M', at: '2031-01-01T00:00:00Z' }], 'not both'],
    ['neither', [{ action: 'display' }], 'not both'],
    ['an at time without a zone', [{ at: '2031-01-01T09:00:00' }], 'UTC'],
    ['a trigger over a year', [{ trigger: '-P400D' }], 'at most a year'],
    ['a repeat without its interval', [{ trigger: '-PT5M', repeat: 3 }], 'repeat_every'],
    ['an unknown key', [{ trigger: '-PT5M', sound: 'bell' }], 'Is not a reminder'],
    ['too many', Array.from({ length: 21 }, (_, i) => `-PT${i + 1}M`), 'at most 20'],
  ])('refuses %s with a clear rest_invalid_param, writing nothing', async (_what, reminders, words) => {
    const before = t.snapshot();
    const res = await t.api('post', 'events').send({ title: 'Nope', start_date: '2031-05-10 10:00:00', end_date: '2031-05-10 11:00:00', reminders });
    expectInvalidParam(res, 'reminders');
    expect(res.body.data.params.reminders).toContain(words);
    expect(t.snapshot()).toEqual(before);
  });

  it('answers the errors in the request language', async () => {
    const res = await t.api('post', 'events').query({ i18n_language: 'pt-br' }).send({ title: 'X', start_date: '2031-05-10 10:00:00', end_date: '2031-05-10 11:00:00', reminders: [{ action: 'beep', trigger: '-PT1M' }] });
    expectInvalidParam(res, 'reminders');
    expect(res.body.data.params.reminders).toContain('display, audio ou email');
  });

  it('is described in /doc', async () => {
    const doc = await t.api('get', 'doc');
    expect(JSON.stringify(doc.body)).toContain('"reminders"');
    expect(JSON.stringify(doc.body)).toMatch(/VALARM/);
  });
});

describe('reminders of a series', () => {
  it('every occurrence has the series reminders', async () => {
    const all = await weekly(['-PT30M']);
    expect(all).toHaveLength(4);
    for (const e of all) expect(e.reminders).toEqual([{ action: 'display', trigger: '-PT30M' }]);
  });

  it('an occurrence changed on its own keeps its reminders; the others follow the series', async () => {
    const [first, second, third] = await weekly(['-PT30M']);
    const own = await t.api('patch', `events/${second.id}`).send({ reminders: ['-PT5M'], recurrence_scope: 'this' });
    expect(own.body).toMatchObject({ is_exception: true, reminders: [{ action: 'display', trigger: '-PT5M' }] });
    const all = await t.api('patch', `events/${third.id}`).send({ reminders: ['-PT1H'], recurrence_scope: 'all' });
    expect(all.status).toBe(200);
    const after = await occurrences(first.id);
    expect(after.map((e) => e.reminders![0].trigger)).toEqual(['-PT1H', '-PT5M', '-PT1H', '-PT1H']);
    expect(after.map((e) => e.is_exception)).toEqual([false, true, false, false]);
  });

  it("the first event's own change stays its own: the other occurrences keep the series' reminders", async () => {
    const [first] = await weekly(['-PT30M']);
    await t.api('patch', `events/${first.id}`).send({ reminders: [], recurrence_scope: 'this' });
    let after = await occurrences(first.id);
    expect(after.map((e) => e.reminders!.length)).toEqual([0, 1, 1, 1]);
    // A whole-series change then changes the others, not the first event's own choice.
    await t.api('patch', `events/${after[2].id}`).send({ reminders: ['-PT2H'], recurrence_scope: 'all' });
    after = await occurrences(first.id);
    expect(after.map((e) => e.reminders!.map((r) => r.trigger))).toEqual([[], ['-PT2H'], ['-PT2H'], ['-PT2H']]);
  });

  it('"this and following" gives the new series the reminders it had, or the new ones', async () => {
    const [first, , third] = await weekly(['-PT30M']);
    const split = await t.api('patch', `events/${third.id}`).send({ title: uniq('Later'), recurrence_scope: 'following' });
    expect(split.status).toBe(200);
    const later = await occurrences(third.id);
    expect(later.map((e) => e.reminders)).toEqual([[{ action: 'display', trigger: '-PT30M' }], [{ action: 'display', trigger: '-PT30M' }]]);
    await t.api('patch', `events/${later[1].id}`).send({ reminders: ['-PT1M'], recurrence_scope: 'following' });
    expect((await occurrences(first.id)).map((e) => e.reminders![0].trigger)).toEqual(['-PT30M', '-PT30M']);
    expect((await occurrences(third.id)).map((e) => e.reminders![0].trigger)).toEqual(['-PT30M']);
    expect((await occurrences(later[1].id)).map((e) => e.reminders![0].trigger)).toEqual(['-PT1M']);
  });

  it('an absolute reminder on a series belongs to the first event only, not to every occurrence', async () => {
    const all = await weekly([{ at: '2031-03-01T09:00:00Z' }, '-PT10M']);
    expect(all[0].reminders).toHaveLength(2);
    for (const e of all.slice(1)) expect(e.reminders).toEqual([{ action: 'display', trigger: '-PT10M' }]);
  });
});

describe('default reminders from the settings', () => {
  it('are given to events created without a reminders field, timed or all-day, and never to others', async () => {
    t.server.store.settings.update({ reminders_timed: JSON.stringify(['-PT10M']), reminders_all_day: JSON.stringify([{ trigger: '-PT15H' }]) });
    try {
      expect((await mkEvent(t)).reminders).toEqual([{ action: 'display', trigger: '-PT10M' }]);
      expect((await mkEvent(t, { all_day: true })).reminders).toEqual([{ action: 'display', trigger: '-PT15H' }]);
      expect((await mkEvent(t, { reminders: [] })).reminders).toEqual([]);
      // An edit is not a creation.
      const plain = await mkEvent(t, { reminders: [] });
      expect((await t.api('patch', `events/${plain.id}`).send({ title: uniq('Edited') })).body.reminders).toEqual([]);
    } finally {
      t.server.store.settings.update({ reminders_timed: '[]', reminders_all_day: '[]' });
    }
    expect((await mkEvent(t)).reminders).toEqual([]);
  });

  it('a setting that is not a valid list gives no reminders rather than failing the creation', async () => {
    t.server.store.settings.update({ reminders_timed: '{oops' });
    try {
      expect((await mkEvent(t)).reminders).toEqual([]);
    } finally {
      t.server.store.settings.update({ reminders_timed: '[]' });
    }
  });
});
