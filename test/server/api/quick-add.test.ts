/**
 * POST /quick-add (issue 27 §1): a sentence becomes the event POST /events would make, in the
 * request's language, from now in the calendar's zone; dry runs and refusals save nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectInvalidParam, mkVenue } from './_support';

let t: TestServer;
// Thursday 2027-03-25, 10:00 in Lisbon (its clocks go forward on Sunday).
const NOW = new Date('2027-03-25T10:00:00Z');

beforeAll(async () => {
  t = await startTestServer({ now: () => NOW });
  const res = await t.api('patch', 'settings').send({ timezone: 'Europe/Lisbon', default_event_minutes: 30, reminders_timed: ['-PT10M'] });
  expect(res.status).toBe(200);
  await mkVenue(t, { venue: 'Luso' });
});
afterAll(async () => {
  await t?.close();
});

const quick = (body: Record<string, unknown>, root = '/cal/events/v1/') =>
  request(t.server.url).post(`${root}quick-add`).set('Authorization', `Bearer ${t.server.token}`).send(body);

/** Fields of a record that differ between any two events however they were made. */
const OWN = ['id', 'global_id', 'global_id_lineage', 'slug', 'url', 'rest_url', 'website', 'date', 'date_utc', 'modified', 'modified_utc', 'series_id', 'json_ld'];
const shape = (record: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(record)
      .filter(([k]) => !OWN.includes(k))
      // A category's count grows with each event that has it.
      .map(([k, v]) => [k, k === 'categories' ? (v as Array<Record<string, unknown>>).map(({ count: _, ...c }) => c) : v]),
  );

describe('POST /quick-add', () => {
  it('makes the event POST /events makes from the same fields, and answers it in the same shape', async () => {
    const res = await quick({ text: 'Lunch with Ana tomorrow 1pm at Luso #work' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const e = res.body;
    expect(e.title).toBe('Lunch with Ana');
    expect([e.start_date, e.end_date, e.timezone, e.all_day]).toEqual(['2027-03-26 13:00:00', '2027-03-26 13:30:00', 'Europe/Lisbon', false]);
    expect(e.venue.venue).toBe('Luso');
    expect(e.categories.map((c: { name: string }) => c.name)).toEqual(['work']);
    // No reminder said: the settings' default, as for any event made in Almanac.
    expect(e.reminders).toEqual([{ action: 'display', trigger: '-PT10M' }]);

    const same = await t.api('post', 'events').send({
      title: 'Lunch with Ana', start_date: '2027-03-26 13:00:00', end_date: '2027-03-26 13:30:00', all_day: false,
      timezone: 'Europe/Lisbon', status: 'publish', venue: e.venue.id, categories: ['work'],
    });
    expect(same.status).toBe(201);
    expect(Object.keys(e)).toEqual(Object.keys(same.body));
    expect(shape(e)).toEqual(shape(same.body));
    expect((await t.api('get', `events/${e.id}`)).body.title).toBe('Lunch with Ana');
  });

  it('reads the language of the root prefix or of i18n_language, and answers refusals in it', async () => {
    const pt = await quick({ text: 'Almoço sexta 13h no Luso' }, '/pt-br/cal/events/v1/');
    expect(pt.status, JSON.stringify(pt.body)).toBe(201);
    // Luso is an English venue (records belong to a language): its name stays in a Portuguese title.
    expect([pt.body.title, pt.body.start_date, pt.body.venue]).toEqual(['Almoço no Luso', '2027-03-26 13:00:00', []]);
    await mkVenue(t, { venue: 'Luso', i18n_language: 'pt-br' });
    const linked = await quick({ text: 'Jantar sexta 20h no Luso' }, '/pt-br/cal/events/v1/');
    expect([linked.body.title, linked.body.venue.venue]).toEqual(['Jantar', 'Luso']);
    const es = await quick({ text: 'Cena el viernes a las 21h', i18n_language: 'es' });
    expect(es.status).toBe(201);
    expect([es.body.title, es.body.start_date]).toEqual(['Cena', '2027-03-26 21:00:00']);
    const inPt = (await t.api('get', 'events').query({ i18n_language: 'pt-br', start_date: '2027-03-26', end_date: '2027-03-26' })).body.events;
    expect(inPt.map((x: { title: string }) => x.title).sort()).toEqual(['Almoço no Luso', 'Jantar']);

    const refused = await quick({ text: 'Comprar leite' }, '/pt-br/cal/events/v1/');
    expectInvalidParam(refused, 'text');
    expect(refused.body.data.params.text).toMatch(/Não diz dia nem hora/);
    const refusedEs = await quick({ text: 'mañana 15h', i18n_language: 'es' });
    expectInvalidParam(refusedEs, 'text');
    expect(refusedEs.body.data.params.text).toMatch(/no qué/);
  });

  it('keeps the words of a venue that does not exist in the title', async () => {
    const res = await quick({ text: 'Drinks at Bar X friday 8pm' });
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Drinks at Bar X');
    expect(res.body.venue).toEqual([]);
  });

  it('with dry_run answers 200 with the record it would make, and saves nothing', async () => {
    const before = t.snapshot();
    const res = await quick({ text: 'Gym daily 7am until June remind me 1 hour before #health', dry_run: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.title).toBe('Gym');
    expect(res.body.start_date).toBe('2027-03-26 07:00:00');
    expect(res.body.recurrence.rules).toEqual(['FREQ=DAILY;UNTIL=20270601T225959Z']);
    expect(res.body.reminders).toEqual([{ action: 'display', trigger: '-PT1H' }]);
    expect(t.snapshot()).toEqual(before);
    expect((await t.api('get', 'categories').query({ search: 'health' })).body.categories ?? []).toEqual([]);
  });

  it('refuses a sentence with no date or no title in words, naming text, and saves nothing', async () => {
    const before = t.snapshot();
    const noDate = await quick({ text: 'Buy milk' });
    expectInvalidParam(noDate, 'text');
    expect(noDate.body.data.params.text).toMatch(/no day or time/);
    const noTitle = await quick({ text: 'tomorrow 3pm #work' });
    expectInvalidParam(noTitle, 'text');
    expect(noTitle.body.data.params.text).toMatch(/not what/);
    expectInvalidParam(await quick({ text: '' }), 'text');
    // The work a sentence can cause is bounded by its length: a line, as any title.
    expectInvalidParam(await quick({ text: `Lunch tomorrow 1pm ${'a'.repeat(1000)}` }), 'text');
    expect((await quick({})).status).toBe(400);
    expectInvalidParam(await quick({ text: 'Lunch tomorrow 1pm', calendar: 999 }), 'calendar');
    expect(t.snapshot()).toEqual(before);
  });

  it('needs the token', async () => {
    const res = await request(t.server.url).post('/cal/events/v1/quick-add').send({ text: 'Lunch tomorrow 1pm' });
    expect(res.status).toBe(401);
  });
});

// Last: its series' rows are written in the background after the answer, which the row counts above would see.
describe('POST /quick-add of a repeating event', () => {
  it('makes a series: its first event with its recurrence, and the occurrences after it', async () => {
    const res = await quick({ text: 'Standup every weekday 9:15 remind me 5 minutes before' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.start_date).toBe('2027-03-26 09:15:00');
    expect(res.body.recurrence).toEqual({ rules: ['FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'], rdates: [], exdates: [] });
    expect(res.body.reminders).toEqual([{ action: 'display', trigger: '-PT5M' }]);
    const list = await t.api('get', 'events').query({ post_parent: res.body.id, start_date: '2027-03-26', end_date: '2027-04-02', per_page: 50 });
    // Monday's standup is 09:15 in summer time: the series keeps its wall time across the change.
    const starts = list.body.events.map((x: { start_date: string }) => x.start_date);
    expect(starts).toContain('2027-03-29 09:15:00');
    expect(starts.length).toBe(5);
  });

});

describe('/doc', () => {
  it('describes POST /quick-add with its text, dry_run and calendar, answering an Event', async () => {
    const doc = (await t.api('get', 'doc')).body;
    const op = doc.paths['/quick-add'].post;
    const props = op.requestBody.content['application/x-www-form-urlencoded'].schema.properties;
    expect(Object.keys(props)).toEqual(expect.arrayContaining(['text', 'dry_run', 'calendar']));
    expect(op.summary).toMatch(/plain words/);
  });
});
