/**
 * The websites' client on its own, with the shapes the original plugin's WordPress sites answer
 * (site-sync.md, "Verified against the live original"): text as the site renders it reads as the
 * text typed, the events namespace is found by its shape, addresses are built in both forms, and
 * the body sent carries the whole event.
 */
import { describe, expect, it } from 'vitest';
import { identity, normEvent, normTerm, payload, recordHash, siteOccurrence, visibleText } from '../../../electron/server/sites/records';
import { decodeEntities } from '../../../shared/content';
import { apiLink, eventsNamespace, normalizeSiteUrl } from '../../../electron/server/sites/discovery';
import { apiUrl, retryAfterMs } from '../../../electron/server/sites/http';
import { SiteError } from '../../../electron/server/sites/errors';

/** An event as the original answers it (trimmed to what the sync reads). */
const wpEvent = {
  id: 12,
  title: 'Tom &#038; Jerry&#8217;s <b>show</b>',
  description: '<p>Line one<br />\nLine two</p>\n<p>P2</p>\n',
  excerpt: '',
  status: 'draft',
  date: '2026-01-02 03:04:05',
  start_date: '2027-03-05 10:00:00',
  end_date: '2027-03-05 12:00:00',
  all_day: false,
  timezone: 'America/New_York',
  cost: 'Free &ndash; $30',
  cost_details: { currency_symbol: '$', currency_position: 'prefix', values: ['0', '30'] },
  website: 'https://example.org/show',
  url: 'https://example.org/event/show/',
  featured: true,
  sticky: false,
  show_map: true,
  show_map_link: false,
  hide_from_listings: false,
  venue: [],
  organizer: [{ id: 40 }, { id: 7 }],
  categories: [{ id: 3, name: 'Music &amp; Arts' }],
  tags: [],
  some_field_almanac_does_not_know: { nested: true },
};

describe('what the user sees', () => {
  it('decodes the entities and undoes the paragraphs the site renders', () => {
    expect(decodeEntities('Tom &#038; Jerry&#8217;s &amp; &lt;b&gt; &#x41; &unknown;')).toBe('Tom & Jerry’s & <b> A &unknown;');
    expect(visibleText('<p>Line one<br />\nLine two</p>\n')).toBe('Line one\nLine two');
    expect(visibleText('<p>P1</p>\n<p>P2</p>')).toBe('P1\n\nP2');
    expect(visibleText('<ul><li>kept</li></ul>')).toBe('<ul><li>kept</li></ul>');
    expect(visibleText(undefined)).toBe('');
  });

  it('reads an event of the original: no venue as [], organizers and terms by id, unknown fields left out', () => {
    const e = normEvent(wpEvent, identity);
    expect(e).toEqual({
      title: 'Tom & Jerry’s <b>show</b>',
      description: 'Line one\nLine two\n\nP2',
      excerpt: '',
      status: 'draft',
      date: '2026-01-02 03:04:05',
      start_date: '2027-03-05 10:00:00',
      end_date: '2027-03-05 12:00:00',
      all_day: false,
      timezone: 'America/New_York',
      cost: ['$0', '$30'],
      website: 'https://example.org/show',
      featured: true,
      sticky: false,
      show_map: true,
      show_map_link: false,
      hide_from_listings: false,
      venue: null,
      organizer: [7, 40],
      categories: [3],
      tags: [],
    });
    // Key order and fields Almanac does not know never look like a change.
    expect(recordHash(normEvent({ ...wpEvent, extra: 1, organizer: [{ id: 7 }, { id: 40 }] }, identity))).toBe(recordHash(e));
    expect(normTerm('category', { id: 3, name: 'Music &amp; Arts', slug: 'music-arts', parent: 0 }, identity)).toEqual({ name: 'Music & Arts', slug: 'music-arts', description: '', parent: null });
  });

  it('sends the whole event, as wall times with an IANA zone; no venue is left out rather than sent empty', () => {
    const body = payload('event', normEvent(wpEvent, identity) as never, { almanac: false });
    for (const key of ['title', 'description', 'excerpt', 'status', 'date', 'start_date', 'end_date', 'all_day', 'timezone', 'cost', 'website', 'featured', 'sticky', 'show_map', 'show_map_link', 'hide_from_listings', 'organizer', 'categories', 'tags']) expect(body, key).toHaveProperty(key);
    expect(body).not.toHaveProperty('venue');
    expect(body.cost).toBe('$0 – $30');
    expect(body.start_date).toBe('2027-03-05 10:00:00');
    expect(body.status).toBe('draft');
    expect(() => payload('event', { ...normEvent(wpEvent, identity), venue: 'local:5' } as never, { almanac: false })).toThrow(/not got yet/);
  });
});

describe('finding the API', () => {
  it('takes the address as a person types it', () => {
    expect(normalizeSiteUrl('example.org')).toBe('https://example.org');
    expect(normalizeSiteUrl(' https://example.org/blog/ ')).toBe('https://example.org/blog');
    expect(normalizeSiteUrl('localhost:8080/wp')).toBe('http://localhost:8080/wp');
    expect(normalizeSiteUrl('http://example.org/?p=1#x')).toBe('http://example.org');
    expect(() => normalizeSiteUrl('ftp://example.org')).toThrow(SiteError);
    expect(() => normalizeSiteUrl('https://user:pw@example.org')).toThrow(SiteError);
  });

  it('follows the Link header', () => {
    expect(apiLink('<https://example.org/wp-json/>; rel="https://api.w.org/"', 'https://example.org/')).toBe('https://example.org/wp-json/');
    expect(apiLink('<https://example.org/?p=4>; rel=shortlink, <https://example.org/index.php?rest_route=/>; rel="https://api.w.org/"', 'https://example.org/')).toBe('https://example.org/index.php?rest_route=/');
    expect(apiLink(null, 'https://example.org/')).toBeUndefined();
  });

  it('finds the events namespace by its shape, whatever its brand', () => {
    const routes = (ns: string, kinds = ['events', 'venues', 'organizers', 'categories', 'tags']) => Object.fromEntries(kinds.map((k) => [`/${ns}/${k}`, {}]));
    const index = { namespaces: ['oembed/1.0', 'tec/v1', 'brand/events/v1', 'wp/v2'], routes: { ...routes('tec/v1'), ...routes('brand/events/v1'), '/wp/v2/users/me': {} } };
    expect(eventsNamespace(index)).toEqual({ namespace: 'brand/events/v1', almanac: false, usersMe: true, ifMatch: false });
    expect(eventsNamespace({ namespaces: ['other/events/v1'], routes: routes('other/events/v1', ['events', 'venues']) })).toBeUndefined();
    expect(eventsNamespace({ namespaces: ['wp/v2'], routes: {} })).toBeUndefined();
    expect(eventsNamespace('<html>')).toBeUndefined();
  });

  it('builds addresses in the pretty and the ?rest_route= forms', () => {
    expect(apiUrl('https://example.org/wp-json/x/events/v1/', 'events/5', { page: 2 })).toBe('https://example.org/wp-json/x/events/v1/events/5?page=2');
    const plain = apiUrl('https://example.org/?rest_route=/x/events/v1/', 'events', { page: 2, status: 'trash' });
    const u = new URL(plain);
    expect(u.searchParams.get('rest_route')).toBe('/x/events/v1/events');
    expect(u.searchParams.get('page')).toBe('2');
    expect(u.searchParams.get('status')).toBe('trash');
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(55_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});

describe('an occurrence Events Calendar Pro generates (read-only here)', () => {
  it('is told by its series as post_parent, a recurring flag, or a provisional id; a plain post is not', () => {
    expect(siteOccurrence({ ...wpEvent, id: 10000114, post_parent: 77 })).toEqual({ reason: 'site_occurrence', series: 77 });
    // Pro before its custom tables: occurrences were child posts of the first event, with post ids.
    expect(siteOccurrence({ ...wpEvent, id: 513, post_parent: 500 })).toEqual({ reason: 'site_occurrence', series: 500 });
    expect(siteOccurrence({ ...wpEvent, id: 10000115 })).toEqual({ reason: 'site_occurrence', series: null });
    expect(siteOccurrence({ ...wpEvent, is_recurring: true })).toEqual({ reason: 'site_occurrence', series: null });
    expect(siteOccurrence(wpEvent)).toBeNull();
    expect(siteOccurrence({ ...wpEvent, post_parent: 0 })).toBeNull();
    expect(siteOccurrence({ ...wpEvent, post_parent: wpEvent.id, is_recurring: false })).toBeNull();
    expect(siteOccurrence({ ...wpEvent, id: 9_999_999 })).toBeNull();
  });
});
