// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../renderer/src/i18n';
import { emptyFilters } from '../../renderer/src/api/client';
import { useCalendar } from '../../renderer/src/state/calendar';
import { useEvents } from '../../renderer/src/state/events';
import { activeFilterCount, useFilters } from '../../renderer/src/state/filters';
import { useLookups } from '../../renderer/src/state/lookups';
import { useToasts } from '../../renderer/src/state/toasts';
import { useCalendars } from '../../renderer/src/state/calendars';
import { useUndo } from '../../renderer/src/state/undo';
import { useSettings, detectLanguage } from '../../renderer/src/state/settings';
import { createEvent, moveBody, moveEvent, trashEvent, undoLast, updateEvent } from '../../renderer/src/state/eventActions';
import { listOf, makeEvent, makeVenue, mockApi } from './helpers';

const range = { start: new Date(2031, 2, 1), end: new Date(2031, 3, 12) };

beforeEach(() => {
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  useEvents.setState({ events: [], status: 'idle', query: null, fetching: false, error: null });
  useEvents.getState().invalidate();
  useUndo.getState().clear();
  useToasts.setState({ toasts: [] });
  useFilters.getState().clear();
});
afterEach(() => vi.useRealTimers());

describe('calendar store', () => {
  it('steps by the unit of the view', () => {
    const cal = useCalendar.getState();
    cal.goto('2031-01-31');
    cal.setView('month');
    useCalendar.getState().next();
    expect(useCalendar.getState().date).toBe('2031-02-28');
    useCalendar.getState().setView('week');
    useCalendar.getState().prev();
    expect(useCalendar.getState().date).toBe('2031-02-21');
    useCalendar.getState().setView('day');
    useCalendar.getState().next();
    expect(useCalendar.getState().date).toBe('2031-02-22');
    useCalendar.getState().today();
    expect(useCalendar.getState().date).toBe(new Date().toLocaleDateString('sv'));
  });
});

describe('filters store', () => {
  it('toggles list filters and counts what is active', () => {
    const f = useFilters.getState();
    f.toggle('categories', 3);
    f.toggle('categories', 4);
    f.toggle('categories', 3);
    f.setFeatured(true);
    f.setSearch('jazz');
    expect(useFilters.getState().categories).toEqual([4]);
    expect(activeFilterCount(useFilters.getState())).toBe(3);
    useFilters.getState().prune({ categories: new Set([1]), tags: new Set(), venues: new Set(), organizers: new Set() });
    expect(useFilters.getState().categories).toEqual([]);
    useFilters.getState().clear();
    expect(activeFilterCount(useFilters.getState())).toBe(0);
  });
});

describe('settings', () => {
  it('picks the interface language from the system’s', () => {
    expect(detectLanguage(['pt-BR', 'en'])).toBe('pt-br');
    expect(detectLanguage(['es-AR'])).toBe('es');
    expect(detectLanguage(['de-DE'])).toBe('en');
  });
});

describe('events store', () => {
  it('loads a range and ignores an answer that arrives after a newer request', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const api = mockApi({
      'GET events': async (call) => {
        if (call.url.searchParams.get('search') === 'slow') await gate;
        const id = call.url.searchParams.get('search') === 'slow' ? 1 : 2;
        return { body: { events: [makeEvent({ id })], total: 1, total_pages: 1, rest_url: '' } };
      },
    });
    const slow = useEvents.getState().load({ range, filters: { ...emptyFilters(), search: 'slow' }, language: 'en' });
    await useEvents.getState().load({ range, filters: emptyFilters(), language: 'en' });
    release();
    await slow;
    expect(useEvents.getState().events.map((e) => e.id)).toEqual([2]);
    expect(useEvents.getState().status).toBe('ready');
    expect(api.to('GET', 'events')).toHaveLength(2);
  });

  it('shows a cached range at once and refreshes it quietly', async () => {
    let n = 0;
    mockApi({ 'GET events': () => ({ body: { events: [makeEvent({ id: ++n })], total: 1, total_pages: 1, rest_url: '' } }) });
    const q = { range, filters: emptyFilters(), language: 'en' };
    await useEvents.getState().load(q);
    const second = useEvents.getState().load(q);
    expect(useEvents.getState().status).toBe('ready');
    expect(useEvents.getState().events.map((e) => e.id)).toEqual([1]);
    expect(useEvents.getState().fetching).toBe(true);
    await second;
    expect(useEvents.getState().events.map((e) => e.id)).toEqual([2]);
  });

  it('reports a failed load', async () => {
    mockApi({ 'GET events': { status: 500, body: { code: 'internal_error', message: 'Something went wrong on the server; nothing was changed.', data: { status: 500 } } } });
    await expect(useEvents.getState().load({ range, filters: emptyFilters(), language: 'en' })).rejects.toThrow('Something went wrong');
    expect(useEvents.getState().status).toBe('error');
    expect(useEvents.getState().error).toMatch(/Something went wrong/);
  });
});

describe('lookups store', () => {
  it('keeps the newest list of a kind when an older answer arrives last', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    mockApi({
      'GET venues': async () => {
        // The first list asked for still has the venue the second no longer has (it was trashed).
        if (++calls === 1) {
          await gate;
          return listOf('venues', [makeVenue(1, 'Old Mill'), makeVenue(2, 'Town Hall')]);
        }
        return listOf('venues', [makeVenue(2, 'Town Hall')]);
      },
    });
    const older = useLookups.getState().reload('venues');
    await useLookups.getState().reload('venues');
    release();
    await older;
    expect(useLookups.getState().venues.map((v) => v.venue)).toEqual(['Town Hall']);
  });

  it('a full load overtaken by a newer one (the records language changed) neither applies nor reports its answers', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const list = (lang: string | null) => listOf('venues', [makeVenue(1, lang === 'es' ? 'Ayuntamiento' : 'Town Hall')]);
    mockApi({
      'GET venues': async (c) => {
        const lang = c.url.searchParams.get('i18n_language');
        if (lang === 'en') {
          await gate;
          return { status: 500, body: { code: 'broken', message: 'The old request failed.', data: { status: 500 } } };
        }
        return list(lang);
      },
      'GET categories': async () => listOf('categories', []),
      'GET tags': async () => listOf('tags', []),
      'GET organizers': async () => listOf('organizers', []),
    });
    useSettings.setState({ contentLanguage: 'en' });
    const older = useLookups.getState().loadAll();
    useSettings.setState({ contentLanguage: 'es' });
    await useLookups.getState().loadAll();
    release();
    await expect(older).resolves.toBeUndefined();
    expect(useLookups.getState().venues.map((v) => v.venue)).toEqual(['Ayuntamiento']);
  });
});

describe('undo stack and event actions', () => {
  it('creating pushes an undo that trashes the new event', async () => {
    const created = makeEvent({ id: 41, title: 'Picnic' });
    const api = mockApi({ 'POST events': { status: 201, body: created }, 'DELETE events/41': { body: { ...created, status: 'trash' } }, 'GET events': { body: { events: [], total: 0, total_pages: 0 } } });
    await createEvent({ title: 'Picnic', start_date: '2031-03-12 10:00:00', end_date: '2031-03-12 11:00:00' });
    expect(useEvents.getState().events.map((e) => e.id)).toEqual([41]);
    expect(useToasts.getState().toasts.at(-1)?.message).toBe('Created “Picnic”');
    await undoLast();
    expect(api.to('DELETE', 'events/41')).toHaveLength(1);
    expect(useEvents.getState().events).toEqual([]);
    expect(useToasts.getState().toasts.at(-1)?.message).toBe('Undone: create “Picnic”');
  });

  it('updating sends only the body given and undo puts the old values back', async () => {
    const before = makeEvent({ id: 5, title: 'Old', featured: false });
    const after = { ...before, title: 'New', featured: true };
    const api = mockApi({ 'PATCH events/5': (c) => ({ body: (c.body as { title?: string }).title === 'Old' ? before : after }), 'GET events': { body: { events: [], total: 0, total_pages: 0 } } });
    await updateEvent(before, { title: 'New', featured: true });
    expect(api.to('PATCH', 'events/5')[0].body).toEqual({ title: 'New', featured: true });
    await useUndo.getState().undo();
    expect(api.to('PATCH', 'events/5')[1].body).toEqual({ title: 'Old', featured: false });
  });

  it('keeps an undo entry whose reversal failed, so it can be tried again', async () => {
    const undo = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(undefined);
    useUndo.getState().push({ label: 'x', undo });
    await expect(useUndo.getState().undo()).rejects.toThrow('offline');
    expect(useUndo.getState().stack).toHaveLength(1);
    await expect(useUndo.getState().undo()).resolves.toBe('x');
    expect(useUndo.getState().stack).toHaveLength(0);
  });

  it('an event of a read-only calendar is neither moved nor trashed, however asked: it says why and sends nothing', async () => {
    useCalendars.setState({ calendars: [{ id: 4, name: 'Holidays', color: null, visible: true, account: 'Home', account_id: 1, synced: true, read_only: true, subscription: null }] });
    try {
      const e = makeEvent({ id: 8, calendar: 4 });
      const api = mockApi({});
      const revert = vi.fn();
      await moveEvent(e, { start: new Date(Date.UTC(2031, 2, 14, 12)), end: new Date(Date.UTC(2031, 2, 14, 13)), allDay: false, startDay: '2031-03-14', endDay: '2031-03-14' }, revert);
      expect(revert).toHaveBeenCalledOnce();
      await trashEvent(e);
      expect(api.calls).toHaveLength(0);
      expect(useToasts.getState().toasts.map((x) => x.message)).toEqual([
        'This event is in “Holidays”, a read-only calendar: it can be looked at, not changed.',
        'This event is in “Holidays”, a read-only calendar: it can be looked at, not changed.',
      ]);
    } finally {
      useCalendars.setState({ calendars: [] });
    }
  });

  it('a refused drag is put back and the server’s reason shown', async () => {
    const e = makeEvent({ id: 8, timezone: 'Europe/Lisbon' });
    mockApi({ 'PATCH events/8': { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): start_date', data: { status: 400, params: { start_date: 'bad' } } } } });
    const revert = vi.fn();
    await moveEvent(e, { start: new Date(Date.UTC(2031, 2, 14, 12)), end: new Date(Date.UTC(2031, 2, 14, 13)), allDay: false, startDay: '2031-03-14', endDay: '2031-03-14' }, revert);
    expect(revert).toHaveBeenCalledOnce();
    const toast = useToasts.getState().toasts.at(-1)!;
    expect(toast.kind).toBe('error');
    expect(toast.message).toBe('Invalid parameter(s): start_date');
  });

  it('a move is written in the event’s own zone; all-day moves use whole days', () => {
    const timed = makeEvent({ timezone: 'America/New_York' });
    expect(moveBody(timed, { start: new Date(Date.UTC(2031, 2, 14, 23)), end: new Date(Date.UTC(2031, 2, 15, 1, 30)), allDay: false, startDay: '', endDay: null })).toEqual({
      start_date: '2031-03-14 19:00:00',
      end_date: '2031-03-14 21:30:00',
    });
    expect(moveBody(timed, { start: new Date(2031, 2, 14), end: null, allDay: true, startDay: '2031-03-14', endDay: '2031-03-16' })).toEqual({
      all_day: true,
      start_date: '2031-03-14 00:00:00',
      end_date: '2031-03-15 23:59:59',
    });
    const allDay = makeEvent({ all_day: true, timezone: 'UTC' });
    expect(moveBody(allDay, { start: new Date(Date.UTC(2031, 2, 14, 9)), end: null, allDay: false, startDay: '', endDay: null })).toEqual({
      all_day: false,
      start_date: '2031-03-14 09:00:00',
      end_date: '2031-03-14 10:00:00',
    });
  });

  it('trashing removes the event and offers Undo, which restores it', async () => {
    const e = makeEvent({ id: 12, title: 'Dentist' });
    useEvents.setState({ events: [e], query: { range, filters: emptyFilters(), language: 'en' } });
    const api = mockApi({ 'DELETE events/12': { body: { ...e, status: 'trash' } }, 'POST events/12': { body: e }, 'GET events': { body: { events: [e], total: 1, total_pages: 1 } } });
    await trashEvent(e);
    expect(useEvents.getState().events).toEqual([]);
    const toast = useToasts.getState().toasts.at(-1)!;
    expect(toast.message).toBe('Moved “Dentist” to the trash');
    toast.action!.run();
    await vi.waitFor(() => expect(api.to('POST', 'events/12')).toHaveLength(1));
    expect(api.to('POST', 'events/12')[0].body).toEqual({ status: 'publish' });
    await vi.waitFor(() => expect(useEvents.getState().events.map((x) => x.id)).toEqual([12]));
  });
});
