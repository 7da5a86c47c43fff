/**
 * Export → import: every field an event body can express comes back as it went out.
 */
import { describe, expect, it } from 'vitest';
import type { Event } from '../../../shared/api/records';
import { exportIcs } from '../../../electron/server/icalendar/export';
import { parseIcs, type EventBody } from '../../../electron/server/icalendar/import';
import { renderContent } from '../../../electron/server/serialize/content';
import { event, organizer, term, venue } from '../import-export/records';

const cases: { event: Event; body: EventBody }[] = [
  {
    event: event({
      id: 101,
      title: 'Spring Concert',
      slug: 'spring-concert-2025',
      start_date: '2025-03-14 19:00:00',
      end_date: '2025-03-14 21:30:00',
      timezone: 'America/New_York',
      date_utc: '2025-01-05 19:23:36',
      description: '<p>An evening of chamber music.</p>\n<p>Haydn, Mozart; Brahms.</p>',
      excerpt: '<p>Chamber music night</p>',
      cost: '$23',
      cost_details: { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: ['23'] },
      website: 'https://concerts.example.org/spring',
      image: { url: 'https://images.example.org/concert.jpg', id: 77 },
      featured: true,
      show_map: true,
      show_map_link: true,
      categories: [term(31, 'Music', 'categories'), term(32, 'Concerts', 'categories')],
      // A tag with a category's name must stay a tag, and the category must stay a category.
      tags: [term(40, 'chamber', 'tags'), term(41, 'Music', 'tags')],
      venue: venue({
        id: 201,
        venue: 'Town Hall',
        address: '1 Main St',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        country: 'United States',
        phone: '+1 217 555 0100',
        website: 'http://townhall.example.org',
        geo_lat: 39.8017,
        geo_lng: -89.6436,
      }),
      organizer: [
        organizer({ id: 301, organizer: 'Arts Council', email: 'info@arts.example.org', phone: '555-0101', website: 'http://arts.example.org' }),
        organizer({ id: 302, organizer: 'Friends of "Music"; Springfield', phone: '555-0199' }),
      ],
      i18n_language: 'pt-br',
    }),
    body: {
      title: 'Spring Concert',
      start_date: '2025-03-14 19:00:00',
      end_date: '2025-03-14 21:30:00',
      timezone: 'America/New_York',
      all_day: false,
      // Plain paragraphs travel as DESCRIPTION alone: the text the API renders as the same HTML.
      description: 'An evening of chamber music.\n\nHaydn, Mozart; Brahms.',
      excerpt: '<p>Chamber music night</p>',
      slug: 'spring-concert-2025',
      status: 'publish',
      date_utc: '2025-01-05 19:23:36',
      website: 'https://concerts.example.org/spring',
      image: 'https://images.example.org/concert.jpg',
      cost: '$23',
      featured: true,
      sticky: false,
      hide_from_listings: false,
      show_map: true,
      show_map_link: true,
      categories: ['Music', 'Concerts'],
      tags: ['chamber', 'Music'],
      venue: {
        venue: 'Town Hall',
        address: '1 Main St',
        city: 'Springfield',
        country: 'United States',
        state: 'IL',
        zip: '62701',
        phone: '+1 217 555 0100',
        website: 'http://townhall.example.org',
        geo_lat: 39.8017,
        geo_lng: -89.6436,
      },
      organizer: [
        { organizer: 'Arts Council', email: 'info@arts.example.org', phone: '555-0101', website: 'http://arts.example.org' },
        { organizer: 'Friends of "Music"; Springfield', phone: '555-0199' },
      ],
      i18n_language: 'pt-br',
    },
  },
  {
    event: event({
      id: 102,
      title: 'Harvest Fair',
      all_day: true,
      start_date: '2025-10-03 00:00:00',
      end_date: '2025-10-05 23:59:59',
      timezone: 'Europe/Lisbon',
      status: 'draft',
      sticky: true,
      hide_from_listings: true,
      cost: 'Free – 30€',
      cost_details: { currency_symbol: '€', currency_code: 'EUR', currency_position: 'postfix', values: ['0', '20', '30'] },
      tags: [term(42, 'outdoors', 'tags')],
    }),
    body: {
      title: 'Harvest Fair',
      start_date: '2025-10-03 00:00:00',
      end_date: '2025-10-05 23:59:59',
      timezone: 'Europe/Lisbon',
      all_day: true,
      slug: 'harvest-fair',
      status: 'draft',
      date_utc: '2025-01-05 14:23:36',
      cost: ['0€', '20€', '30€'],
      featured: false,
      sticky: true,
      hide_from_listings: true,
      show_map: false,
      show_map_link: false,
      tags: ['outdoors'],
      i18n_language: 'en',
    },
  },
  {
    event: event({
      id: 103,
      title: 'Night, Sky; Stars \\ Planets 🌌',
      start_date: '2025-08-12 23:30:00',
      end_date: '2025-08-13 02:00:00',
      timezone: 'UTC+5:30',
      status: 'private',
      excerpt: 'Line one\nLine two, with a comma',
      cost: 'Donation',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: ['Donation'] },
      venue: venue({ id: 202, venue: 'Observatory Hill', address: 'Ridge Road\nGate 2', city: 'Pune', province: 'Maharashtra', country: 'India' }),
    }),
    body: {
      title: 'Night, Sky; Stars \\ Planets 🌌',
      start_date: '2025-08-12 23:30:00',
      end_date: '2025-08-13 02:00:00',
      timezone: 'UTC+5:30',
      all_day: false,
      excerpt: 'Line one\nLine two, with a comma',
      slug: 'night-sky-stars-planets-',
      status: 'private',
      date_utc: '2025-01-05 14:23:36',
      cost: 'Donation',
      featured: false,
      sticky: false,
      hide_from_listings: false,
      show_map: false,
      show_map_link: false,
      venue: { venue: 'Observatory Hill', address: 'Ridge Road\nGate 2', city: 'Pune', country: 'India', province: 'Maharashtra' },
      i18n_language: 'en',
    },
  },
  {
    // Across the spring-forward night: the wall times must not move.
    event: event({ id: 104, title: 'Overnight Hackathon', start_date: '2025-03-29 22:00:00', end_date: '2025-03-30 06:00:00', timezone: 'Europe/Berlin' }),
    body: {
      title: 'Overnight Hackathon',
      start_date: '2025-03-29 22:00:00',
      end_date: '2025-03-30 06:00:00',
      timezone: 'Europe/Berlin',
      all_day: false,
      slug: 'overnight-hackathon',
      status: 'publish',
      date_utc: '2025-01-05 14:23:36',
      featured: false,
      sticky: false,
      hide_from_listings: false,
      show_map: false,
      show_map_link: false,
      i18n_language: 'en',
    },
  },
  {
    event: event({ id: 105, title: 'Server maintenance', start_date: '2025-05-01 02:00:00', end_date: '2025-05-01 03:00:00', timezone: 'UTC', status: 'trash' }),
    body: {
      title: 'Server maintenance',
      start_date: '2025-05-01 02:00:00',
      end_date: '2025-05-01 03:00:00',
      timezone: 'UTC',
      all_day: false,
      slug: 'server-maintenance',
      status: 'trash',
      date_utc: '2025-01-05 14:23:36',
      featured: false,
      sticky: false,
      hide_from_listings: false,
      show_map: false,
      show_map_link: false,
      i18n_language: 'en',
    },
  },
];

describe('ICS export → import round trip', () => {
  const uidOf = (e: Event) => (e.id === 105 ? 'imported-from-elsewhere@example.com' : undefined);
  const text = exportIcs(cases.map((c) => c.event), { uidHost: 'almanac.test', uidOf });
  // A site zone unlike any event's: every zone must come from the file.
  const result = parseIcs(text, { siteZone: 'Asia/Tokyo' });

  it('imports every exported event without problems', () => {
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.events).toHaveLength(cases.length);
  });

  it.each(cases.map((c, i) => [c.event.title, i] as const))('reproduces the body of "%s"', (_, i) => {
    expect(result.events[i].body).toEqual(cases[i].body);
  });

  it('gives back descriptions the API shows as the same HTML', () => {
    for (const [i, c] of cases.entries()) {
      if (c.event.description) expect(renderContent(result.events[i].body.description ?? '')).toBe(c.event.description);
    }
  });

  it('keeps the UIDs, so that re-importing the file updates instead of duplicating', () => {
    expect(result.events.map((e) => e.uid)).toEqual([
      'almanac-101@almanac.test',
      'almanac-102@almanac.test',
      'almanac-103@almanac.test',
      'almanac-104@almanac.test',
      'imported-from-elsewhere@example.com',
    ]);
    expect(result.events.every((e) => e.recurrenceId === undefined && !e.body.recurrence)).toBe(true);
  });
});
