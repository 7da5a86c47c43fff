/**
 * GET /venues and GET /organizers query parameters (reference §4.2, §6; corrections 13, 14):
 * which fields `search` looks in and how it splits words, `event`, `has_events` by event status,
 * `only_with_upcoming` against the clock and the caller, `status`, newest-first order, and the
 * links that carry the filters. The API suite covers the basics; this covers the edges.
 *
 * The server allows public reads, so the same data is seen by the owner and by an anonymous reader.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { startTestServer, type TestServer } from '../../helpers/server';
import { expectInvalidParam, follow, idsOf, mkEvent, queryOf, uniq, word } from './_queries';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ publicRead: true });
  t.server.store.settings.update({ timezone: 'America/Sao_Paulo' });
});
afterAll(async () => {
  await t?.close();
});

type Kind = 'venue' | 'organizer';
const plural = (k: Kind) => (k === 'venue' ? 'venues' : 'organizers');
async function mk(kind: Kind, body: Record<string, unknown> = {}) {
  const res = await t.api('post', plural(kind)).send({ [kind]: uniq(kind), ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const linkTo = (kind: Kind, ids: number[]) => (kind === 'venue' ? { venue: ids[0] } : { organizer: ids });
const FMT = 'yyyy-MM-dd HH:mm:ss';
/** An event starting `hours` from now (site zone), lasting `length` hours. */
const at = (hours: number, length = 1) => {
  const s = DateTime.now().setZone('America/Sao_Paulo').plus({ hours });
  return { start_date: s.toFormat(FMT), end_date: s.plus({ hours: length }).toFormat(FMT) };
};
const get = (kind: Kind, q: string, anon = false) => (anon ? t.anon : t.api)('get', `${plural(kind)}?per_page=50&${q}`);
const ids = async (kind: Kind, q: string, anon = false) => idsOf(await get(kind, q, anon), plural(kind));
const sorted = (a: number[]) => [...a].sort((x, y) => x - y);

describe('venue search: every word in one of title, description, excerpt, address, city, province, state, stateprovince, zip, phone', () => {
  const fields = ['description', 'excerpt', 'address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'];
  it.each(fields)('finds a word in %s', async (field) => {
    const w = word('v');
    const hit = await mk('venue', { [field]: `Rua ${w} 12` });
    await mk('venue', { [field]: 'Rua Outra 12' });
    expect(await ids('venue', `search=${w}`)).toEqual([hit.id]);
  });

  it('finds a word in the name', async () => {
    const w = word('v');
    const hit = await mk('venue', { venue: `Teatro ${w}` });
    expect(await ids('venue', `search=${w}`)).toEqual([hit.id]);
  });

  it.each(['country', 'website'])('does not look in %s', async (field) => {
    const w = word('v');
    await mk('venue', { [field]: field === 'website' ? `https://${w}.example.org/` : `Land ${w}` });
    expect(await ids('venue', `search=${w}`)).toEqual([]);
  });
});

describe('organizer search: title, description, excerpt, phone, email, website', () => {
  it.each(['description', 'excerpt', 'phone', 'email', 'website'])('finds a word in %s', async (field) => {
    const w = word('o');
    const value = field === 'email' ? `${w}@example.org` : field === 'website' ? `https://${w}.example.org/` : `Call ${w} now`;
    const hit = await mk('organizer', { [field]: value });
    await mk('organizer', { [field]: field === 'email' ? 'other@example.org' : field === 'website' ? 'https://other.example.org/' : 'Call later' });
    expect(await ids('organizer', `search=${w}`)).toEqual([hit.id]);
  });
});

describe('search words', () => {
  it.each<Kind>(['venue', 'organizer'])('%s: all words in ONE field; punctuation splits words; "-" does not', async (kind) => {
    const w = word('s');
    const together = await mk(kind, { [kind]: `${w} Grand Hall` });
    const apart = await mk(kind, { [kind]: `${w} Grand`, description: 'Hall of fame' });
    const hyphen = await mk(kind, { [kind]: `${w} co-op` });
    const spaced = await mk(kind, { [kind]: `${w} co op` });
    expect(await ids(kind, `search=${encodeURIComponent(`${w}/hall;GRAND`)}`)).toEqual([together.id]);
    expect(await ids(kind, `search=${encodeURIComponent(`${w} co-op`)}`)).toEqual([hyphen.id]);
    expect(sorted(await ids(kind, `search=${encodeURIComponent(`${w}+co.op`)}`))).toEqual(sorted([hyphen.id, spaced.id]));
    expect(sorted(await ids(kind, `search=${w}`))).toEqual(sorted([together.id, apart.id, hyphen.id, spaced.id]));
  });

  it.each<Kind>(['venue', 'organizer'])('%s: case-insensitive beyond ASCII (são paulo finds SÃO PAULO)', async (kind) => {
    const w = word('u');
    const hit = await mk(kind, { [kind]: `SÃO PAULO ${w}` });
    expect(await ids(kind, `search=${encodeURIComponent(`são ${w}`)}`)).toEqual([hit.id]);
  });

  it.each<Kind>(['venue', 'organizer'])('%s: a search of punctuation only finds nothing, with total 0', async (kind) => {
    const res = await get(kind, `search=${encodeURIComponent('!!! ...')}`);
    expect([res.status, res.body[plural(kind)], res.body.total, res.body.total_pages]).toEqual([200, [], 0, 0]);
  });

  it.each<Kind>(['venue', 'organizer'])('%s: the percent sign splits words like any punctuation (no SQL wildcard)', async (kind) => {
    const w = word('p');
    const pct = await mk(kind, { [kind]: `${w} 50% off` });
    const more = await mk(kind, { [kind]: `${w} 500 off` });
    await mk(kind, { [kind]: `${w} 5x0 off` }); // a wildcard 50% would be 5?0 or 5…0: left out
    expect(sorted(await ids(kind, `search=${encodeURIComponent(`${w} 50%`)}`))).toEqual(sorted([pct.id, more.id]));
  });
});

describe.each<Kind>(['venue', 'organizer'])('%s: event', (kind) => {
  it('only the records linked to that event', async () => {
    const a = await mk(kind);
    const b = await mk(kind);
    await mk(kind);
    const ev = await mkEvent(t, linkTo(kind, kind === 'venue' ? [a.id] : [a.id, b.id]));
    expect(sorted(await ids(kind, `event=${ev.id}`))).toEqual(sorted(kind === 'venue' ? [a.id] : [a.id, b.id]));
    const bare = await mkEvent(t);
    expect(await ids(kind, `event=${bare.id}`)).toEqual([]);
  });

  it('combines with search; is echoed', async () => {
    const w = word('e');
    const a = await mk(kind, { [kind]: `${w} one` });
    const b = await mk(kind, { [kind]: `other ${uniq('x')}` });
    const ev = await mkEvent(t, kind === 'venue' ? { venue: a.id } : { organizer: [a.id, b.id] });
    const res = await get(kind, `event=${ev.id}&search=${w}`);
    expect(idsOf(res, plural(kind))).toEqual([a.id]);
    expect(queryOf(res.body.rest_url)).toMatchObject({ event: String(ev.id), search: w });
  });

  it.each(['0', '-1', 'abc', '', '999999'])('event=%j → 400', async (bad) => {
    expectInvalidParam(await get(kind, `event=${bad}`), 'event');
  });
});

describe.each<Kind>(['venue', 'organizer'])('%s: has_events by the status of the linked events', (kind) => {
  const made: Record<string, number> = {};
  let w: string;
  beforeAll(async () => {
    w = word('h');
    for (const status of ['publish', 'future', 'private', 'draft', 'pending', 'trash', 'none']) {
      const rec = await mk(kind, { [kind]: `${w} ${status}` });
      made[status] = rec.id;
      if (status === 'none') continue;
      const ev = await mkEvent(t, { ...linkTo(kind, [rec.id]), status: status === 'trash' ? 'publish' : status });
      if (status === 'trash') await t.api('delete', `events/${ev.id}`);
    }
  });

  it('true: linked to an event that is not a draft, pending or trashed', async () => {
    expect(sorted(await ids(kind, `search=${w}&has_events=true`))).toEqual(sorted([made.publish, made.future, made.private]));
  });

  it('false: the others', async () => {
    expect(sorted(await ids(kind, `search=${w}&has_events=false`))).toEqual(sorted([made.draft, made.pending, made.trash, made.none]));
  });

  it('absent: no filter; echoed when given', async () => {
    expect(await ids(kind, `search=${w}`)).toHaveLength(7);
    expect(queryOf((await get(kind, `search=${w}&has_events=false`)).body.rest_url)).toHaveProperty('has_events');
  });

  it.each(['maybe', '2'])('has_events=%s → 400', async (bad) => {
    expectInvalidParam(await get(kind, `has_events=${bad}`), 'has_events');
  });
});

describe.each<Kind>(['venue', 'organizer'])('%s: only_with_upcoming against the clock and the caller', (kind) => {
  const made: Record<string, number> = {};
  let w: string;
  beforeAll(async () => {
    w = word('u');
    const plan: Array<[string, Record<string, unknown> | null]> = [
      ['inAnHour', at(1)],
      ['ongoing', at(-1, 24)],
      ['past', at(-48)],
      ['draftSoon', { ...at(2), status: 'draft' }],
      ['trashedSoon', at(3)],
      ['none', null],
    ];
    for (const [name, ev] of plan) {
      const rec = await mk(kind, { [kind]: `${w} ${name}` });
      made[name] = rec.id;
      if (!ev) continue;
      const res = await mkEvent(t, { ...linkTo(kind, [rec.id]), ...ev });
      if (name === 'trashedSoon') await t.api('delete', `events/${res.id}`);
    }
  });

  it('owner: records with an event starting from now on, drafts counted, trash not, ongoing not', async () => {
    expect(sorted(await ids(kind, `search=${w}&only_with_upcoming=true`))).toEqual(sorted([made.inAnHour, made.draftSoon]));
  });

  it('anonymous: only published upcoming events count', async () => {
    expect(await ids(kind, `search=${w}&only_with_upcoming=true`, true)).toEqual([made.inAnHour]);
  });

  it('default false: no filter', async () => {
    expect(await ids(kind, `search=${w}`)).toHaveLength(6);
    expect(await ids(kind, `search=${w}&only_with_upcoming=false`)).toHaveLength(6);
  });

  it('combined with has_events=false only the record whose upcoming event is a draft is left', async () => {
    expect(await ids(kind, `search=${w}&only_with_upcoming=true&has_events=false`)).toEqual([made.draftSoon]);
  });

  it.each(['maybe', 'upcoming'])('only_with_upcoming=%s → 400', async (bad) => {
    expectInvalidParam(await get(kind, `only_with_upcoming=${bad}`), 'only_with_upcoming');
  });
});

describe.each<Kind>(['venue', 'organizer'])('%s: status and visibility', (kind) => {
  const made: Record<string, number> = {};
  let w: string;
  beforeAll(async () => {
    w = word('st');
    for (const status of ['publish', 'draft', 'pending', 'private', 'future', 'trash']) {
      const rec = await mk(kind, { [kind]: `${w} ${status}`, status: status === 'trash' ? 'publish' : status });
      made[status] = rec.id;
      if (status === 'trash') await t.api('delete', `${plural(kind)}/${rec.id}`);
    }
  });

  it('owner default: every status but trash', async () => {
    expect(sorted(await ids(kind, `search=${w}`))).toEqual(sorted(['publish', 'draft', 'pending', 'private', 'future'].map((s) => made[s])));
  });

  it('owner: one status, a CSV, a list, any, trash', async () => {
    expect(await ids(kind, `search=${w}&status=pending`)).toEqual([made.pending]);
    expect(sorted(await ids(kind, `search=${w}&status=draft,private`))).toEqual(sorted([made.draft, made.private]));
    expect(sorted(await ids(kind, `search=${w}&status[]=future&status[]=publish`))).toEqual(sorted([made.future, made.publish]));
    expect(await ids(kind, `search=${w}&status=any`)).toHaveLength(5);
    expect(await ids(kind, `search=${w}&status=trash`)).toEqual([made.trash]);
  });

  it('anonymous: published only; status=publish allowed, anything else → 400', async () => {
    expect(await ids(kind, `search=${w}`, true)).toEqual([made.publish]);
    expect(await ids(kind, `search=${w}&status=publish`, true)).toEqual([made.publish]);
    for (const s of ['draft', 'publish,draft', 'any', 'trash']) expectInvalidParam(await get(kind, `status=${s}`, true), 'status');
  });

  it.each(['bogus', 'publish,bogus', ''])('status=%j → 400', async (bad) => {
    expectInvalidParam(await get(kind, `status=${bad}`), 'status');
  });
});

describe.each<Kind>(['venue', 'organizer'])('%s: newest first', (kind) => {
  it('by publication date, not by id or by the last change', async () => {
    const w = word('n');
    const mid = await mk(kind, { [kind]: `${w} mid`, date: '2022-06-01 10:00:00' });
    const newest = await mk(kind, { [kind]: `${w} newest`, date_utc: '2024-06-01 10:00:00' });
    const oldest = await mk(kind, { [kind]: `${w} oldest`, date: '2019-06-01 10:00:00' });
    await t.api('put', `${plural(kind)}/${oldest.id}`).send({ description: 'changed just now' });
    expect(await ids(kind, `search=${w}`)).toEqual([newest.id, mid.id, oldest.id]);
  });

  it('the order holds across pages, and the next link keeps every filter', async () => {
    const w = word('pg');
    const made: number[] = [];
    for (let i = 0; i < 5; i++) made.push((await mk(kind, { [kind]: `${w} ${i}`, date: `2020-0${i + 1}-01 10:00:00` })).id);
    await mkEvent(t, linkTo(kind, [made[0]]));
    const newestFirst = [...made].reverse();
    const p1 = await t.api('get', `${plural(kind)}?search=${w}&per_page=2&has_events=false&status=publish`);
    expect(idsOf(p1, plural(kind))).toEqual(newestFirst.slice(0, 2));
    expect(queryOf(p1.body.next_rest_url)).toMatchObject({ search: w, per_page: '2', status: 'publish', page: '2' });
    expect(queryOf(p1.body.next_rest_url)).toHaveProperty('has_events');
    const p2 = await follow(t, p1.body.next_rest_url);
    expect(idsOf(p2, plural(kind))).toEqual(newestFirst.slice(2, 4));
    expect(p2.body.next_rest_url).toBeUndefined();
    expect(p2.body.total).toBe(4);
  });
});
