// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { eventFields, venueFields } from '@shared/schema/resources';
import { changedFields, costToText, eventToForm, formFields, formToBody, htmlToText, localErrors, recordToForm, reverseBody, textToCost } from '../../renderer/src/editor/form';
import { toEventInput, decodeEntities, PALETTE } from '../../renderer/src/calendar/toEventInput';
import { dayNumberOf, dayRange, eventsOnDay, layoutMonth, singleDayOf } from '../../renderer/src/calendar/monthCollapse';
import { embedded, makeEvent, makeTerm, makeVenue } from './helpers';

describe('editor form model (from the schema field declarations)', () => {
  it('shows every declared event field except the derived UTC publication date', () => {
    const names = formFields(eventFields).map(([n]) => n);
    for (const n of ['title', 'start_date', 'end_date', 'timezone', 'all_day', 'description', 'excerpt', 'cost', 'website', 'image', 'status', 'featured', 'sticky', 'hide_from_listings', 'show_map', 'show_map_link', 'categories', 'tags', 'venue', 'organizer', 'slug', 'author', 'date'])
      expect(names).toContain(n);
    expect(names).not.toContain('date_utc');
  });

  it('reads an event record back into editable values', () => {
    const music = makeTerm(31, 'Music &amp; Arts');
    const e = makeEvent({
      title: 'Tom &amp; Jerry',
      description: '<p>First</p>\n<p>Second<br />line</p>',
      cost: '$23',
      cost_details: { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: ['10', '23'] },
      website: 'http://127.0.0.1/event/e/',
      image: { url: 'https://example.org/a.jpg' },
      categories: [embedded(music)],
      venue: makeVenue(7, 'Town Hall'),
      organizer: [],
    });
    const v = eventToForm(e, eventFields);
    expect(v.title).toBe('Tom & Jerry');
    expect(v.description).toBe('First\n\nSecond\nline');
    expect(v.cost).toBe('$10, $23');
    expect(v.website).toBe(''); // the permalink is not a website of its own
    expect(v.image).toBe('https://example.org/a.jpg');
    expect(v.categories).toEqual([{ id: 31, name: 'Music & Arts' }]);
    expect(v.venue).toBe(7);
  });

  it('on update sends only what changed, in the API’s shapes', () => {
    const initial = eventToForm(makeEvent({ venue: makeVenue(7, 'Hall') }), eventFields);
    const current = { ...initial, title: 'Renamed', categories: [{ id: 3, name: 'Work' }, { name: 'Brand new' }], venue: null, featured: true };
    expect(changedFields(initial, current).sort()).toEqual(['categories', 'featured', 'title', 'venue']);
    expect(formToBody(eventFields, current, initial)).toEqual({ title: 'Renamed', categories: [3, 'Brand new'], venue: 0, featured: true });
  });

  it('on create sends the fields that have a value', () => {
    const v = { ...eventToForm(makeEvent(), eventFields), venue: { venue: 'New Place', city: 'Lisbon' }, organizer: [4, { organizer: 'Ana' }], website: '', cost: '10€, 20€' };
    const body = formToBody(eventFields, v);
    expect(body).toMatchObject({ title: 'Event', start_date: '2031-03-12 10:00:00', venue: { venue: 'New Place', city: 'Lisbon' }, organizer: [4, { organizer: 'Ana' }], cost: ['10€', '20€'] });
    expect(body).not.toHaveProperty('website');
    expect(body).not.toHaveProperty('featured');
  });

  it('checks required fields and the order of the dates before asking the server', () => {
    const v = { ...eventToForm(makeEvent(), eventFields), title: ' ', end_date: '2031-03-11 09:00:00' };
    expect(localErrors(eventFields, v, { required: 'req', endBeforeStart: 'order' })).toEqual({ title: 'req', end_date: 'order' });
  });

  it('builds the body that undoes an update', () => {
    const before = makeEvent({ title: 'Old', start_date: '2031-03-12 10:00:00', end_date: '2031-03-12 11:00:00', all_day: false });
    expect(reverseBody(eventFields, before, ['title', 'start_date'])).toEqual({ title: 'Old', start_date: '2031-03-12 10:00:00', end_date: '2031-03-12 11:00:00', all_day: false });
  });

  it('reads venues into forms, coordinates included', () => {
    const v = recordToForm(makeVenue(3, 'Mill', { geo_lat: 39.41, geo_lng: -88.79, description: '<p>Old</p>' }), venueFields);
    expect(v).toMatchObject({ venue: 'Mill', geo_lat: '39.41', geo_lng: '-88.79', description: 'Old', show_map: true });
    expect(formToBody(venueFields, { ...v, geo_lat: '40' }, v)).toEqual({ geo_lat: 40 });
    expect(formToBody(venueFields, { ...v, geo_lat: '' }, v)).toEqual({ geo_lat: '' });
  });

  it('handles cost text both ways and plain HTML', () => {
    expect(textToCost('1,000')).toBe('1,000');
    expect(textToCost('10, 20')).toEqual(['10', '20']);
    expect(costToText({ cost: 'Free', cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] } })).toBe('Free');
    expect(htmlToText('<p>a &amp; b</p>')).toBe('a & b');
  });
});

describe('events on the calendar', () => {
  it('places timed events by their UTC instants and all-day events on their own days', () => {
    const timed = toEventInput(makeEvent({ id: 1, timezone: 'America/New_York', start_date: '2031-03-14 19:00:00', utc_start_date: '2031-03-14 23:00:00', utc_end_date: '2031-03-15 01:30:00' }));
    expect(timed).toMatchObject({ id: '1', start: '2031-03-14T23:00:00Z', end: '2031-03-15T01:30:00Z', allDay: false });
    const allDay = toEventInput(makeEvent({ id: 2, all_day: true, start_date: '2031-03-18 00:00:00', end_date: '2031-03-20 23:59:59' }));
    expect(allDay).toMatchObject({ start: '2031-03-18', end: '2031-03-21', allDay: true });
  });

  it('marks featured and sticky events, colours by category, and never sends an undefined colour', () => {
    const input = toEventInput(makeEvent({ id: 3, featured: true, sticky: true, categories: [embedded(makeTerm(9, 'Work'))] }));
    expect(input.classNames).toEqual(['ev-featured', 'ev-sticky']);
    expect(input.color).toBe(PALETTE[9 % PALETTE.length]);
    expect('color' in toEventInput(makeEvent({ id: 4 }))).toBe(false);
    expect(decodeEntities('Rock &#038; Roll &lt;3')).toBe('Rock & Roll <3');
  });

  it('lays out a month: bars stacked per week, a crowded day folded into "+N more"', () => {
    const many = Array.from({ length: 10 }, (_, i) =>
      // Around noon UTC, so the day is the same in any zone the tests run in.
      makeEvent({ id: 100 + i, title: `E${i}`, utc_start_date: `2031-03-12 12:${String(i * 5).padStart(2, '0')}:00`, utc_end_date: `2031-03-12 12:${String(i * 5 + 4).padStart(2, '0')}:00`, sticky: i === 9 }),
    );
    const bar = makeEvent({ id: 1, all_day: true, start_date: '2031-03-11 00:00:00', end_date: '2031-03-13 23:59:59' });
    // Six weeks from Sunday 2031-02-23; the 12th is the Wednesday of the third week.
    const weeks = layoutMonth([...many, bar], dayNumberOf('2031-02-23'), 4);
    const week = weeks[2];
    expect(week.bars).toMatchObject([{ event: { id: 1 }, start: 2, end: 5, level: 0, isStart: true, isEnd: true }]);
    // The bar takes one of the four rows: two one-liners and "+8 more" on the 12th.
    const day = week.days[3];
    expect(day.day).toBe('2031-03-12');
    expect(day.lines.map((e) => e.id)).toEqual([109, 100]); // the pinned one first
    expect(day.more).toBe(8);
    expect(day.barRows).toBe(1);
    expect(week.days[5].barRows).toBe(0); // Friday the 14th: after the bar
    expect(weeks.flatMap((w) => w.days).filter((d) => d.lines.length)).toHaveLength(1);
    expect(eventsOnDay([...many, bar], '2031-03-12')).toHaveLength(11);
    expect(singleDayOf(bar)).toBeNull();
  });

  it('an event covers the days its bar is drawn on, and the "+N more" list of a day agrees', () => {
    // In the zone the page runs in, as the grid draws timed events.
    const utc = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
    const timed = (id: number, start: Date, end: Date) => makeEvent({ id, utc_start_date: utc(start), utc_end_date: utc(end) });
    const toMidnight = timed(1, new Date(2031, 2, 12, 22, 0), new Date(2031, 2, 13, 0, 0));
    const overnight = timed(2, new Date(2031, 2, 12, 22, 0), new Date(2031, 2, 14, 1, 0));
    const allDay = makeEvent({ id: 3, all_day: true, start_date: '2031-03-13 00:00:00', end_date: '2031-03-13 23:59:59' });
    expect(dayRange(toMidnight)).toEqual(['2031-03-12', '2031-03-12']); // ending at midnight is not on the next day
    expect(dayRange(overnight)).toEqual(['2031-03-12', '2031-03-14']);
    expect(dayRange(allDay)).toEqual(['2031-03-13', '2031-03-13']);
    const on = (day: string) => eventsOnDay([toMidnight, overnight, allDay], day).map((e) => e.id).sort();
    expect([on('2031-03-12'), on('2031-03-13'), on('2031-03-14'), on('2031-03-15')]).toEqual([[1, 2], [2, 3], [2], []]);
  });
});
