/**
 * A write's answer and its ETag come from one serialisation: the answer is the record as the
 * original answers writes (no json_ld), and the JSON a read of it answers is cached by the same
 * stroke, so the write's tag and the read that follows take it without making the record again.
 */
import { describe, expect, it, vi } from 'vitest';
import { freshStore } from '../../helpers/fresh-store';
import { eventsJson, serializeEvent, writtenEvent } from '../../../electron/server/serialize/event';
import { linkedJson, serializeLinked, writtenLinked } from '../../../electron/server/serialize/linked-posts';
import { etagOf } from '../../../electron/server/serialize/json-cache';

const write = { lang: 'en' as const, now: new Date(), siteZone: 'Europe/Lisbon' };

describe('records written', () => {
  it("an event's write answer is the plain record, and the read's JSON and tag are made with it", () => {
    const store = freshStore();
    const ctx = { origin: 'http://127.0.0.1:9', apiRoot: 'http://127.0.0.1:9/wp-json/cal/events/v1/', settings: store.settings.get() };
    const venue = store.write(() => store.venues.create({ venue: 'Hall', city: 'Porto' }, write)).id;
    const id = store.write(() => store.events.create({ title: 'Concert', description: 'Loud', start_date: '2031-03-01 20:00:00', end_date: '2031-03-01 22:00:00', venue }, write));
    const row = store.events.get(id)!;

    const answer = writtenEvent(row, ctx, store);
    expect(answer).toEqual(serializeEvent(row, ctx, store));
    expect(answer).not.toHaveProperty('json_ld');
    expect(JSON.stringify(answer)).toBe(JSON.stringify(serializeEvent(row, ctx, store)));

    // The read (and the write's ETag) now find the entry: no event row is read again to make it.
    const byIds = vi.spyOn(store.events, 'byIds');
    const [read] = eventsJson([id], ctx, store, { jsonLd: true });
    expect(byIds).not.toHaveBeenCalled();
    expect(JSON.parse(read.toString()).json_ld).toMatchObject({ '@type': 'Event', name: 'Concert' });
    // The tag is the one a fresh serialisation of the same record hashes to.
    expect(etagOf(read, ctx)).toBe(etagOf(JSON.stringify(serializeEvent(row, ctx, store, { jsonLd: true })), ctx));
  });

  it("a venue's likewise", () => {
    const store = freshStore();
    const ctx = { origin: 'http://127.0.0.1:9', apiRoot: 'http://127.0.0.1:9/wp-json/cal/events/v1/', settings: store.settings.get() };
    const id = store.write(() => store.venues.create({ venue: 'Hall', city: 'Porto' }, write)).id;
    const row = store.venues.get(id)!;
    const answer = writtenLinked('venue', row, ctx, store);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(serializeLinked('venue', [row], ctx, store)[0]));
    const byIds = vi.spyOn(store.venues, 'byIds');
    const [read] = linkedJson('venue', [id], ctx, store, { jsonLd: true });
    expect(byIds).not.toHaveBeenCalled();
    expect(JSON.parse(read.toString()).json_ld).toBeDefined();
  });
});
