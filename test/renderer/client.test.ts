// @vitest-environment happy-dom
import { describe, expect, it, beforeEach } from 'vitest';
import { ApiClient, ApiError, emptyFilters, rangeQuery } from '../../renderer/src/api/client';
import { useSettings } from '../../renderer/src/state/settings';
import { makeEvent } from './helpers';

beforeEach(() => useSettings.setState({ contentLanguage: 'en', uiLanguage: 'en' }));

function client(fetchImpl: typeof fetch, token?: string) {
  return new ApiClient({ base: 'http://127.0.0.1:4780/cal/events/v1/', token, language: () => useSettings.getState().contentLanguage, fetch: fetchImpl, networkMessage: () => 'Cannot reach the server.' });
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('ApiClient', () => {
  it('sends i18n_language on every request, JSON bodies, and the bearer token when it has one', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    const c = client(async (url, init = {}) => {
      seen.push({ url: String(url), init });
      return json(makeEvent({ id: 9 }));
    }, 'secret-token');
    useSettings.setState({ contentLanguage: 'pt-br' });
    await c.createEvent({ title: 'Show' });
    const url = new URL(seen[0].url);
    expect(url.pathname).toBe('/cal/events/v1/events');
    expect(url.searchParams.get('i18n_language')).toBe('pt-br');
    expect(seen[0].init.method).toBe('POST');
    expect(seen[0].init.body).toBe(JSON.stringify({ title: 'Show' }));
    const headers = seen[0].init.headers as Record<string, string>;
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers.Authorization).toBe('Bearer secret-token');
  });

  it('turns an error body into an ApiError carrying the server’s message and field reasons', async () => {
    const c = client(async () =>
      json({ code: 'rest_invalid_param', message: 'Parâmetro(s) inválido(s): website', data: { status: 400, params: { website: 'Deve ser uma URL.' } } }, 400),
    );
    const err = await c.updateEvent(3, { website: 'x' }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('Parâmetro(s) inválido(s): website');
    expect(err.status).toBe(400);
    expect(err.code).toBe('rest_invalid_param');
    expect(err.fieldErrors).toEqual({ website: 'Deve ser uma URL.' });
  });

  it('says in plain words when the server cannot be reached', async () => {
    const c = client(async () => {
      throw new TypeError('Failed to fetch');
    });
    const err = await c.getEvent(1).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('Cannot reach the server.');
    expect(err.code).toBe('network_error');
  });

  it('fetches a range: page 1 first, then the other pages at most four at a time, in order', async () => {
    const total = 7 * 50 + 3;
    let inFlight = 0;
    let maxInFlight = 0;
    const pages: number[] = [];
    const c = client(async (input) => {
      const url = new URL(String(input));
      const page = Number(url.searchParams.get('page'));
      pages.push(page);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, page === 1 ? 0 : 5));
      inFlight--;
      const count = page === 8 ? 3 : 50;
      const events = Array.from({ length: count }, (_, i) => makeEvent({ id: (page - 1) * 50 + i + 1 }));
      return json({ events, total, total_pages: 8, rest_url: '' });
    });
    const events = await c.fetchEventsInRange({ start: new Date(2031, 2, 1), end: new Date(2031, 3, 12) }, emptyFilters());
    expect(events).toHaveLength(total);
    expect(events.map((e) => e.id)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(pages[0]).toBe(1);
    expect(maxInFlight).toBeLessThanOrEqual(4);
    expect(maxInFlight).toBeGreaterThan(1);
  });

  it('treats a page that vanished meanwhile (404 past the end) as empty', async () => {
    const c = client(async (input) => {
      const page = Number(new URL(String(input)).searchParams.get('page'));
      if (page === 2) return json({ code: 'event-archive-page-not-found', message: 'gone', data: { status: 404 } }, 404);
      return json({ events: [makeEvent({ id: page })], total: 51, total_pages: 2, rest_url: '' });
    });
    const events = await c.fetchEventsInRange({ start: new Date(2031, 2, 1), end: new Date(2031, 3, 12) }, emptyFilters());
    expect(events.map((e) => e.id)).toEqual([1]);
  });

  it('asks for what overlaps the range, with the filters as list parameters', () => {
    const q = rangeQuery(
      { start: new Date(2031, 2, 1), end: new Date(2031, 3, 12) },
      { categories: [3, 4], tags: [7], venues: [9], organizers: [11, 12], featured: true, search: '  jazz ', calendars: [1, 5] },
    );
    expect(q).toMatchObject({
      ends_after: '2031-02-28 00:00:00',
      starts_before: '2031-04-13 00:00:00',
      strict_dates: true,
      categories: [3, 4],
      tags: [7],
      venue: [9],
      organizer: [11, 12],
      featured: true,
      search: 'jazz',
      calendar: [1, 5],
    });
    const plain = rangeQuery({ start: new Date(2031, 2, 1), end: new Date(2031, 3, 12) }, emptyFilters());
    expect(plain.featured).toBeUndefined();
    expect(plain.search).toBeUndefined();
    const url = new URL(client(fetch).url('events', plain));
    expect(url.searchParams.has('categories')).toBe(false);
    // Every calendar shown: no calendar filter at all, so clients' events of any calendar come.
    expect(url.searchParams.has('calendar')).toBe(false);
    expect(url.searchParams.get('strict_dates')).toBe('true');
  });

  it('restores with status publish and deletes for good with force=true', async () => {
    const seen: Array<{ method?: string; url: URL; body?: unknown }> = [];
    const c = client(async (input, init = {}) => {
      seen.push({ method: init.method, url: new URL(String(input)), body: init.body });
      return json({});
    });
    await c.restore('events', 5);
    await c.deleteForever('venues', 6);
    await c.trash('organizers', 7);
    expect(seen[0]).toMatchObject({ method: 'POST', body: JSON.stringify({ status: 'publish' }) });
    expect(seen[0].url.pathname).toBe('/cal/events/v1/events/5');
    expect(seen[1].method).toBe('DELETE');
    expect(seen[1].url.searchParams.get('force')).toBe('true');
    expect(seen[2].method).toBe('DELETE');
    expect(seen[2].url.searchParams.has('force')).toBe(false);
  });
});
