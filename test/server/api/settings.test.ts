/**
 * The settings route (Almanac, issue 15 item 8): what a client reads and changes, the refusals in
 * the request's language, that the values are kept in the calendar's file across a restart, and
 * that the default reminders set here are what new events get.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message, type MessageKey } from '../../../shared/i18n/messages';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectError, expectInvalidParam, uniq } from './_support';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const get = async () => {
  const res = await t.api('get', 'settings');
  expect(res.status).toBe(200);
  return res.body;
};

describe('GET /settings', () => {
  it('gives every setting with its default, the system zone standing in for an unset one', async () => {
    const s = await get();
    expect(s).toEqual({
      week_starts_on: 'language',
      time_format: 'language',
      work_start: '09:00',
      work_end: '17:00',
      timezone: expect.any(String),
      system_timezone: expect.any(String),
      theme: 'system',
      default_event_minutes: 60,
      recurrence_horizon_months: 24,
      reminders_timed: [],
      reminders_all_day: [],
      reminder_sound: false,
      keep_running_in_tray: false,
    });
    expect(s.timezone.length).toBeGreaterThan(0);
    // Unset, the zone in use is the server's own: the app then draws in the computer's zone.
    expect(s.system_timezone).toBe(s.timezone);
  });

  it('needs the token, like every write route, even to read', async () => {
    expectError(await t.anon('get', 'settings'), 401, 'rest_forbidden');
    expectError(await t.anon('patch', 'settings').send({ theme: 'dark' }), 401, 'rest_forbidden');
    expect((await get()).theme).toBe('system');
  });

  it('is described in /doc with its fields and bounds', async () => {
    const doc = (await t.api('get', 'doc')).body;
    const patch = doc.paths['/settings'].patch;
    const props = patch.requestBody.content['application/json'].schema.properties;
    expect(Object.keys(props)).toEqual(expect.arrayContaining(['week_starts_on', 'time_format', 'work_start', 'work_end', 'timezone', 'theme', 'default_event_minutes', 'recurrence_horizon_months', 'reminders_timed', 'reminders_all_day']));
    expect(props.recurrence_horizon_months).toMatchObject({ minimum: 3, maximum: 120 });
    expect(props.theme.enum).toEqual(['system', 'light', 'dark']);
    expect(doc.paths['/settings'].get).toBeTruthy();
  });
});

describe('PATCH /settings', () => {
  it('changes what is sent, keeps the rest, and answers with all of them', async () => {
    const res = await t.api('patch', 'settings').send({ week_starts_on: 'monday', time_format: '24h', theme: 'dark', work_start: '8:30', work_end: '18:00', default_event_minutes: 45 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ week_starts_on: 'monday', time_format: '24h', theme: 'dark', work_start: '08:30', work_end: '18:00', default_event_minutes: 45, recurrence_horizon_months: 24 });
    expect(await get()).toEqual(res.body);
    const again = await t.api('patch', 'settings').send({ theme: 'light' });
    expect(again.body).toMatchObject({ theme: 'light', week_starts_on: 'monday', time_format: '24h' });
  });

  it('sets the zone the calendar is shown in, and "" gives back the system zone', async () => {
    const res = await t.api('patch', 'settings').send({ timezone: 'America/Sao_Paulo' });
    expect(res.body.timezone).toBe('America/Sao_Paulo');
    const cleared = await t.api('patch', 'settings').send({ timezone: '' });
    expect(cleared.body.timezone).not.toBe('America/Sao_Paulo');
    expect(cleared.body.timezone.length).toBeGreaterThan(0);
  });

  it.each([
    ['week_starts_on', 'tuesday', 'invalid_choice'],
    ['time_format', '13h', 'invalid_choice'],
    ['theme', 'purple', 'invalid_choice'],
    ['work_start', '25:00', 'invalid_clock'],
    ['work_end', 'five pm', 'invalid_clock'],
    ['timezone', 'New York', 'invalid_timezone'],
    ['default_event_minutes', 0, 'invalid_event_minutes'],
    ['default_event_minutes', 1441, 'invalid_event_minutes'],
    ['default_event_minutes', 'an hour', 'invalid_event_minutes'],
    ['recurrence_horizon_months', 2, 'invalid_horizon'],
    ['recurrence_horizon_months', 121, 'invalid_horizon'],
    ['reminders_timed', [{ action: 'beep', trigger: '-PT5M' }], 'invalid_reminder_action'],
    ['reminders_all_day', 'soon', 'invalid_reminder_trigger'],
  ] as Array<[string, unknown, MessageKey]>)('refuses %s = %j and changes nothing', async (name, value, key) => {
    const before = await get();
    // With a valid change beside it: a refusal must keep that one out too.
    const valid = name === 'theme' ? { time_format: before.time_format === '24h' ? '12h' : '24h' } : { theme: before.theme === 'dark' ? 'light' : 'dark' };
    const res = await t.api('patch', 'settings').send({ [name]: value, ...valid });
    expectInvalidParam(res, name);
    expect(res.body.data.params[name]).toBe(message('en', key));
    expect(await get()).toEqual(before);
  });

  it('says which bound a number broke, in the request language', async () => {
    const en = await t.api('patch', 'settings').send({ recurrence_horizon_months: 500 });
    expect(en.body.data.params.recurrence_horizon_months).toContain('3 to 120');
    const pt = await t.api('patch', 'settings').query({ i18n_language: 'pt-br' }).send({ default_event_minutes: 2 });
    expect(pt.body.data.params.default_event_minutes).toContain('de 5 a 1440');
    const es = await t.api('patch', 'settings').query({ i18n_language: 'es' }).send({ work_end: '99:00' });
    expect(es.body.data.params.work_end).toContain('HH:MM');
  });

  it('refuses a working day that ends before it starts, however the two are sent', async () => {
    await t.api('patch', 'settings').send({ work_start: '09:00', work_end: '17:00' });
    expectInvalidParam(await t.api('patch', 'settings').send({ work_start: '18:00', work_end: '08:00' }), 'work_end');
    expectInvalidParam(await t.api('patch', 'settings').send({ work_start: '17:30' }), 'work_start');
    const pt = await t.api('patch', 'settings').query({ i18n_language: 'pt-br' }).send({ work_end: '08:00' });
    expect(pt.body.data.params.work_end).toContain('terminar depois de começar');
    expect(await get()).toMatchObject({ work_start: '09:00', work_end: '17:00' });
  });

  it('keeps default reminders as lists, normalised, and new events made through the API get them', async () => {
    const res = await t.api('patch', 'settings').send({ reminders_timed: ['-PT10M', { action: 'audio', trigger: '-PT60M' }], reminders_all_day: [{ trigger: '-PT15H' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.reminders_timed).toEqual([{ action: 'display', trigger: '-PT10M' }, { action: 'audio', trigger: '-PT1H' }]);
    expect(res.body.reminders_all_day).toEqual([{ action: 'display', trigger: '-PT15H' }]);
    const timed = await t.api('post', 'events').send({ title: uniq('Timed'), start_date: '2031-05-10 10:00:00', end_date: '2031-05-10 11:00:00' });
    expect(timed.body.reminders).toEqual([{ action: 'display', trigger: '-PT10M' }, { action: 'audio', trigger: '-PT1H' }]);
    const allDay = await t.api('post', 'events').send({ title: uniq('Day'), start_date: '2031-05-11', end_date: '2031-05-11', all_day: true });
    expect(allDay.body.reminders).toEqual([{ action: 'display', trigger: '-PT15H' }]);
    const none = await t.api('patch', 'settings').send({ reminders_timed: [], reminders_all_day: null });
    expect(none.body).toMatchObject({ reminders_timed: [], reminders_all_day: [] });
    const after = await t.api('post', 'events').send({ title: uniq('Quiet'), start_date: '2031-05-12 10:00:00', end_date: '2031-05-12 11:00:00' });
    expect(after.body.reminders).toEqual([]);
  });

  it('a shorter repeat horizon is what a new series gets rows for', async () => {
    await t.api('patch', 'settings').send({ recurrence_horizon_months: 3 });
    const start = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const res = await t.api('post', 'events').send({ title: uniq('Daily'), start_date: `${start} 09:00:00`, end_date: `${start} 10:00:00`, timezone: 'UTC', recurrence: { rules: ['FREQ=DAILY'] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const rows = (t.server.db.prepare('SELECT count(*) AS n FROM events WHERE parent_id = ? OR id = ?').get(res.body.id, res.body.id) as { n: number }).n;
    // About 92 days of rows (3 months), not the 730 of the default 24 months.
    expect(rows).toBeGreaterThan(80);
    expect(rows).toBeLessThan(100);
    await t.api('patch', 'settings').send({ recurrence_horizon_months: 24 });
  });
});

it('settings are kept in the data dir: a restarted server on the same folder has them', async () => {
  const first = await startTestServer();
  await first.api('patch', 'settings').send({ week_starts_on: 'saturday', time_format: '12h', default_event_minutes: 30 });
  await first.server.close();
  const again = await startTestServer({ dataDir: first.dataDir });
  try {
    expect((await again.api('get', 'settings')).body).toMatchObject({ week_starts_on: 'saturday', time_format: '12h', default_event_minutes: 30 });
  } finally {
    await again.close();
  }
});

describe('keep running in the tray', () => {
  it('is kept as a boolean, read by the desktop shell through the store, and refuses what is not one', async () => {
    const t = await startTestServer();
    try {
      const on = await t.api('patch', 'settings').send({ keep_running_in_tray: true });
      expect(on.status, JSON.stringify(on.body)).toBe(200);
      expect(on.body.keep_running_in_tray).toBe(true);
      expect(t.server.store.settings.get().keep_running_in_tray).toBe(true);
      const bad = await t.api('patch', 'settings').send({ keep_running_in_tray: 'sometimes' });
      expect(bad.status).toBe(400);
      expect((await t.api('get', 'settings')).body.keep_running_in_tray).toBe(true);
    } finally {
      await t.close();
    }
  });
});
