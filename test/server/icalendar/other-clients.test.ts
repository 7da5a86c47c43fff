/**
 * Issue 25: the standard properties are the truth. Another client (Thunderbird, iOS, khal) edits
 * DESCRIPTION, LOCATION or the TZID of DTSTART and keeps Almanac's X- properties as they were;
 * a private property is used only while it still agrees with what it restated.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportIcs } from '../../../electron/server/icalendar/export';
import { parseIcs, type EventBody } from '../../../electron/server/icalendar/import';
import { renderContent } from '../../../electron/server/serialize/content';
import { event, organizer, term, venue } from '../import-export/records';
import { descriptionOf, unfold } from '../../helpers/ics';

const FIXTURES = join(__dirname, '../../fixtures/ics/rewrites');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

/** The one event body a text gives (its master for a series). */
function bodyOf(text: string, siteZone = 'Asia/Tokyo'): EventBody {
  const result = parseIcs(text, { siteZone });
  expect(result.errors).toEqual([]);
  expect(result.events.length).toBeGreaterThan(0);
  return result.events[0].body;
}

/** Replaces one property's unfolded line (by name) in the VEVENT, as another client's edit would. */
function rewrite(text: string, name: string, line: string | null): string {
  const lines = unfold(text).split('\r\n');
  const from = lines.indexOf('BEGIN:VEVENT');
  const at = lines.findIndex((l, i) => i > from && (l.startsWith(`${name}:`) || l.startsWith(`${name};`)));
  expect(at, `${name} in the text`).toBeGreaterThanOrEqual(0);
  if (line === null) lines.splice(at, 1);
  else lines[at] = line;
  return lines.join('\r\n');
}

const rehearsal = event({
  id: 501,
  title: 'Choir rehearsal',
  start_date: '2031-03-04 19:00:00',
  end_date: '2031-03-04 21:00:00',
  timezone: 'America/New_York',
  description: '<p>Bring the <b>new</b> scores.<br />\nWarm-up at 18:45.</p>\n<p>Parking behind the hall.</p>',
  venue: venue({ id: 7, venue: 'Town Hall', address: '1 Main St', city: 'Springfield', country: 'United States', phone: '555-0100' }),
  organizer: [organizer({ id: 9, organizer: 'Arts Council', email: 'info@arts.example.org', phone: '555-0101' }), organizer({ id: 10, organizer: 'Friends of Music' })],
  categories: [term(31, 'Music', 'categories')],
  tags: [term(40, 'loud', 'tags')],
});
const exported = exportIcs([rehearsal], { uidHost: 'almanac.test' });

describe("Thunderbird's rewrite of a series Almanac wrote (fixture)", () => {
  const result = parseIcs(fixture('thunderbird-series.ics'), { siteZone: 'Asia/Tokyo' });
  const body = result.events[0].body;

  it('shows the series at 13:00 in the zone Thunderbird moved it to, not in the old X-ALMANAC-TIMEZONE', () => {
    expect(result.errors).toEqual([]);
    expect(body).toMatchObject({ timezone: 'Europe/Madrid', start_date: '2031-03-04 13:00:00', end_date: '2031-03-04 15:00:00' });
    expect(body.recurrence).toMatchObject({ rules: ['FREQ=WEEKLY;COUNT=10'] });
  });

  it('takes the edited DESCRIPTION as plain text: single newlines single, <b>, < and & literal', () => {
    const text = 'Bring the old scores.\nWarm-up at 12:45.\n\nNo parking this week: <b> and < mean what they say & so does this.';
    // Stored as the text's HTML (the API's content): escaped, so nothing is taken for markup.
    expect(body.description).toBe(text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    // And written back exactly as the other client wrote it.
    const again = exportIcs([event({ id: 1, title: 'x', start_date: '2031-03-04 13:00:00', end_date: '2031-03-04 15:00:00', timezone: 'Europe/Madrid', description: renderContent(body.description!) })], { uidHost: 'almanac.test' });
    expect(descriptionOf(again)).toBe(text);
    expect(unfold(again)).not.toContain('X-ALT-DESC');
  });

  it('takes the edited LOCATION as the venue; the stale X-ALMANAC-VENUE is dropped', () => {
    expect(body.venue).toEqual({ venue: 'Sala Luso' });
  });

  it('keeps what still agrees: the organizer, the slug, the reminder Thunderbird added', () => {
    expect(body.organizer).toEqual([{ organizer: 'Arts Council', email: 'info@arts.example.org' }]);
    expect(body.slug).toBe('choir-rehearsal');
    expect(body.reminders).toEqual([expect.objectContaining({ action: 'display', trigger: '-PT15M' })]);
  });
});

describe("iOS's rewrite of a single event Almanac wrote (fixture)", () => {
  const body = bodyOf(fixture('ios-single.ics'));

  it('reads the event in Lisbon, where the iPhone moved it', () => {
    expect(body).toMatchObject({ timezone: 'Europe/Lisbon', start_date: '2031-06-10 20:00:00', end_date: '2031-06-10 22:00:00', all_day: false });
  });

  it('takes the two-line description and the place picked on the map', () => {
    expect(body.description).toBe('Tickets at the door.\nDoors open at 19:30.');
    expect(body.venue).toMatchObject({ venue: 'Sala Luso', address: 'Rua Augusta 10, 1100-053 Lisboa, Portugal', geo_lat: 38.71, geo_lng: -9.137 });
  });
});

describe('an event Almanac writes now, edited by another client', () => {
  it('keeps the HTML, the venue, the zone and the organizers while the standard properties agree', () => {
    const body = bodyOf(exported);
    expect(body.description).toBe(rehearsal.description);
    expect(body).toMatchObject({ timezone: 'America/New_York', start_date: '2031-03-04 19:00:00' });
    expect(body.venue).toMatchObject({ venue: 'Town Hall', address: '1 Main St', city: 'Springfield', phone: '555-0100' });
    expect(body.organizer).toEqual([
      { organizer: 'Arts Council', email: 'info@arts.example.org', phone: '555-0101' },
      { organizer: 'Friends of Music' },
    ]);
    expect(body.tags).toEqual(['loud']);
  });

  it('an edited DESCRIPTION wins over the HTML alternative, whose digest no longer matches', () => {
    const body = bodyOf(rewrite(exported, 'DESCRIPTION', 'DESCRIPTION:Bring the new scores.\\nWarm-up at 18:30.\\n\\nParking behind the hall.'));
    expect(body.description).toBe('Bring the new scores.\nWarm-up at 18:30.\n\nParking behind the hall.');
  });

  it('a DESCRIPTION removed elsewhere removes the description', () => {
    expect(bodyOf(rewrite(exported, 'DESCRIPTION', null)).description).toBeUndefined();
  });

  it('an edited LOCATION wins over X-ALMANAC-VENUE', () => {
    expect(bodyOf(rewrite(exported, 'LOCATION', 'LOCATION:Sala Luso')).venue).toEqual({ venue: 'Sala Luso' });
    expect(bodyOf(rewrite(exported, 'LOCATION', null)).venue).toBeUndefined();
  });

  it('a TZID changed elsewhere wins: the wall time is read in the new zone', () => {
    let text = rewrite(exported, 'DTSTART', 'DTSTART;TZID=Europe/Madrid:20310304T130000');
    text = rewrite(text, 'DTEND', 'DTEND;TZID=Europe/Madrid:20310304T150000');
    expect(bodyOf(text)).toMatchObject({ timezone: 'Europe/Madrid', start_date: '2031-03-04 13:00:00', end_date: '2031-03-04 15:00:00' });
  });

  it('an organizer changed elsewhere replaces the one ORGANIZER restated, the others stay', () => {
    const body = bodyOf(rewrite(exported, 'ORGANIZER', 'ORGANIZER;CN=Ana Reis:mailto:ana@example.org'));
    expect(body.organizer).toEqual([{ organizer: 'Ana Reis', email: 'ana@example.org' }, { organizer: 'Friends of Music' }]);
  });

  it('a tag taken out of CATEGORIES elsewhere is no longer a tag', () => {
    const body = bodyOf(rewrite(exported, 'CATEGORIES', 'CATEGORIES:Music'));
    expect(body.tags ?? []).toEqual([]);
    expect(body.categories).toEqual(['Music']);
  });

  it('a STATUS changed elsewhere wins over X-ALMANAC-STATUS', () => {
    const draft = exportIcs([{ ...rehearsal, status: 'draft' }], { uidHost: 'almanac.test' });
    expect(bodyOf(draft).status).toBe('draft');
    expect(bodyOf(rewrite(draft, 'STATUS', 'STATUS:CONFIRMED')).status ?? 'publish').toBe('publish');
    const priv = exportIcs([{ ...rehearsal, status: 'private' }], { uidHost: 'almanac.test' });
    expect(bodyOf(priv).status).toBe('private');
    expect(bodyOf(rewrite(priv, 'CLASS', 'CLASS:PUBLIC')).status ?? 'publish').toBe('publish');
  });

  it('writes no private property that restates a standard one as it stands', () => {
    const text = unfold(exported);
    // The zone is DTSTART's TZID; a plain description has no HTML alternative.
    expect(text).not.toContain('X-ALMANAC-TIMEZONE');
    const plain = unfold(exportIcs([{ ...rehearsal, description: '<p>Just text.<br />\nTwo lines.</p>' }], { uidHost: 'almanac.test' }));
    expect(plain).not.toContain('X-ALT-DESC');
    expect(plain).toContain('DESCRIPTION:Just text.\\nTwo lines.\r\n');
    // The HTML alternative says which DESCRIPTION it goes with.
    expect(text).toMatch(/^X-ALT-DESC;FMTTYPE=text\/html;X-ALMANAC-DESCRIPTION-HASH=[0-9a-z]+:/m);
  });

  it('keeps the zone of an all-day event and of a UTC event, which no standard property holds', () => {
    const fair = exportIcs([event({ id: 13, title: 'Fair', all_day: true, start_date: '2031-10-03 00:00:00', end_date: '2031-10-05 23:59:59', timezone: 'Europe/Lisbon' })], { uidHost: 'a' });
    expect(bodyOf(fair).timezone).toBe('Europe/Lisbon');
    const call = exportIcs([event({ id: 14, title: 'Call', start_date: '2031-06-02 09:00:00', end_date: '2031-06-02 09:15:00', timezone: 'UTC' })], { uidHost: 'a' });
    expect(bodyOf(call).timezone).toBe('UTC');
    // The API's offset form is its own TZID, and comes back as it went.
    const offset = exportIcs([event({ id: 15, title: 'Call', start_date: '2031-06-02 09:00:00', end_date: '2031-06-02 09:15:00', timezone: 'UTC+2' })], { uidHost: 'a' });
    expect(bodyOf(offset)).toMatchObject({ timezone: 'UTC+2', start_date: '2031-06-02 09:00:00' });
  });
});

describe('files Almanac wrote before its private properties carried a digest', () => {
  // As the previous build wrote the rehearsal: X-ALT-DESC without a digest, its DESCRIPTION with
  // each line break doubled, X-ALMANAC-TIMEZONE beside the TZID.
  const old = [
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Almanac//Almanac Calendar//EN',
    'BEGIN:VEVENT', 'UID:almanac-501@almanac.test', 'DTSTAMP:20250201T090000Z',
    'DTSTART;TZID=America/New_York:20310304T190000', 'DTEND;TZID=America/New_York:20310304T210000',
    'X-ALMANAC-TIMEZONE:America/New_York', 'SUMMARY:Choir rehearsal',
    'DESCRIPTION:Bring the new scores.\\n\\nWarm-up at 18:45.\\n\\nParking behind the hall.',
    'X-ALT-DESC;FMTTYPE=text/html:<p>Bring the <b>new</b> scores.<br />\\nWarm-up at 18:45.</p>\\n<p>Parking behind the hall.</p>',
    'LOCATION:Town Hall\\, 1 Main St\\, Springfield\\, United States',
    'X-ALMANAC-VENUE;ADDRESS="1 Main St";CITY=Springfield;COUNTRY="United States";PHONE=555-0100:Town Hall',
    'STATUS:CONFIRMED', 'X-ALMANAC-STATUS:publish', 'END:VEVENT', 'END:VCALENDAR', '',
  ].join('\r\n');

  it('read unchanged: the HTML and the venue still agree with DESCRIPTION and LOCATION when derived again', () => {
    const body = bodyOf(old);
    expect(body.description).toBe(rehearsal.description);
    expect(body.venue).toMatchObject({ venue: 'Town Hall', phone: '555-0100' });
    expect(body.timezone).toBe('America/New_York');
  });

  it('edited elsewhere: DESCRIPTION and LOCATION win', () => {
    let text = rewrite(old, 'DESCRIPTION', 'DESCRIPTION:Bring the old scores.');
    text = rewrite(text, 'LOCATION', 'LOCATION:Town Hall (side door)');
    const body = bodyOf(text);
    expect(body.description).toBe('Bring the old scores.');
    expect(body.venue).toEqual({ venue: 'Town Hall (side door)' });
  });
});

describe('a TZID another client defines with odd observances', () => {
  it('is read by its IANA name', () => {
    const text = [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Someone//Odd zones//EN',
      // One observance, no DST, a name of its own: the IANA name says more than it does.
      'BEGIN:VTIMEZONE', 'TZID:Europe/Madrid', 'BEGIN:STANDARD', 'DTSTART:16010101T000000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0100', 'TZNAME:Romance Standard Time', 'END:STANDARD', 'END:VTIMEZONE',
      'BEGIN:VEVENT', 'UID:odd-1@example.org', 'DTSTAMP:20310101T000000Z', 'DTSTART;TZID=Europe/Madrid:20310710T130000', 'DTEND;TZID=Europe/Madrid:20310710T140000', 'SUMMARY:Lunch', 'END:VEVENT',
      'END:VCALENDAR', '',
    ].join('\r\n');
    expect(bodyOf(text)).toMatchObject({ timezone: 'Europe/Madrid', start_date: '2031-07-10 13:00:00', end_date: '2031-07-10 14:00:00' });
  });
});
