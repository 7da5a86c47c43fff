// @vitest-environment happy-dom
/**
 * The calendars store (issue 17): hidden calendars become the `calendar` filter of the lists and
 * the export, stay hidden through "Clear filters", and a refused hide is put back; which colour an
 * event is drawn in.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import '../../renderer/src/i18n';
import type { CalendarJson } from '@shared/schema/accounts';
import { emptyFilters, rangeQuery } from '../../renderer/src/api/client';
import { useFilters } from '../../renderer/src/state/filters';
import { useCalendars, visibleCalendarIds } from '../../renderer/src/state/calendars';
import { useLookups } from '../../renderer/src/state/lookups';
import { useSettings } from '../../renderer/src/state/settings';
import { colourFor, PALETTE } from '../../renderer/src/calendar/toEventInput';
import { currentExportFilters } from '../../renderer/src/transfer/exportQuery';
import { makeEvent, mockApi } from './helpers';

const cal = (id: number, over: Partial<CalendarJson> = {}): CalendarJson => ({ id, name: `C${id}`, color: null, visible: true, account: id === 1 ? null : 'Home', account_id: id === 1 ? null : 1, synced: id !== 1, read_only: false, subscription: null, ...over });
const range = { start: new Date(2031, 2, 1), end: new Date(2031, 3, 12) };

beforeEach(() => {
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  useFilters.setState({ ...emptyFilters() });
  useCalendars.setState({ calendars: [], accounts: [], loaded: false });
  useLookups.setState({ categories: [] });
});

describe('calendars store', () => {
  it('asks for no calendar filter while all are shown, and for the shown ones once one is hidden', async () => {
    const api = mockApi({
      'GET calendars': { body: [cal(1), cal(2, { color: '#ff2968' }), cal(3)] },
      'GET accounts': { body: [] },
      'GET sync': { body: { accounts: [], conflicts: [] } },
      'PATCH calendars/:id': (c) => ({ body: { ...cal(Number(c.url.pathname.split('/').pop())), ...(c.body as object) } }),
    });
    await useCalendars.getState().load();
    expect(useFilters.getState().calendars).toBeNull();
    expect(rangeQuery(range, useFilters.getState()).calendar).toBeUndefined();
    expect(currentExportFilters()?.calendar).toBeUndefined();

    await useCalendars.getState().setVisible(3, false);
    expect(api.to('PATCH', 'calendars/3')[0].body).toEqual({ visible: false });
    expect(useFilters.getState().calendars).toEqual([1, 2]);
    expect(rangeQuery(range, useFilters.getState()).calendar).toEqual([1, 2]);
    expect(currentExportFilters()?.calendar).toEqual([1, 2]);
    // "Clear filters" clears what the user filtered, not what they hid.
    useFilters.getState().setSearch('jazz');
    useFilters.getState().clear();
    expect(useFilters.getState().search).toBe('');
    expect(useFilters.getState().calendars).toEqual([1, 2]);
    // Every calendar hidden: no list is asked for, and there is nothing to export of what they show.
    await useCalendars.getState().setVisible(1, false);
    await useCalendars.getState().setVisible(2, false);
    const before = api.to('GET', 'events').length;
    expect(await api.client.fetchEventsInRange(range, useFilters.getState())).toEqual([]);
    expect(api.to('GET', 'events').length).toBe(before);
    expect(currentExportFilters()).toBeNull();
  });

  it('a hide the server refuses is put back', async () => {
    mockApi({ 'PATCH calendars/:id': { status: 500, body: { code: 'internal_error', message: 'Something went wrong on the server; nothing was changed.', data: { status: 500 } } } });
    useCalendars.setState({ calendars: [cal(1), cal(2)] });
    await expect(useCalendars.getState().setVisible(2, false)).rejects.toThrow(/went wrong/);
    expect(useCalendars.getState().calendars.find((c) => c.id === 2)!.visible).toBe(true);
    expect(useFilters.getState().calendars).toBeNull();
  });

  it('a calendar made while another is hidden is asked for at once, as its ticked box says', async () => {
    mockApi({ 'POST calendars': (c) => ({ status: 201, body: cal(5, { ...(c.body as object), account: null, account_id: null, synced: false }) }) });
    useCalendars.setState({ calendars: [cal(1), cal(2, { visible: false })] });
    useFilters.setState({ calendars: [1] });
    const made = await useCalendars.getState().createCalendar({ name: 'Gigs' });
    expect(made.visible).toBe(true);
    expect(useFilters.getState().calendars).toEqual([1, 5]);
    expect(rangeQuery(range, useFilters.getState()).calendar).toEqual([1, 5]);
  });

  it('visibleCalendarIds', () => {
    expect(visibleCalendarIds([cal(1), cal(2)])).toBeNull();
    expect(visibleCalendarIds([cal(1, { visible: false }), cal(2)])).toEqual([2]);
    expect(visibleCalendarIds([cal(1, { visible: false })])).toEqual([]);
  });
});

describe('which colour an event is drawn in', () => {
  it('a chosen category colour, else its calendar colour, else the colour picked by the category id', () => {
    useCalendars.setState({ calendars: [cal(1), cal(2, { color: '#1badf8' })] });
    useLookups.setState({ categories: [{ id: 7, name: 'Work', slug: 'work', color: '#00aa44' } as never, { id: 9, name: 'Misc', slug: 'misc', color: '' } as never] });
    const chosen = { id: 7, name: 'Work', slug: 'work' } as never;
    const unchosen = { id: 9, name: 'Misc', slug: 'misc' } as never;
    expect(colourFor(makeEvent({ calendar: 2, categories: [chosen] }))).toBe('#00aa44');
    expect(colourFor(makeEvent({ calendar: 2, categories: [unchosen] }))).toBe('#1badf8');
    expect(colourFor(makeEvent({ calendar: 2, categories: [] }))).toBe('#1badf8');
    expect(colourFor(makeEvent({ calendar: 1, categories: [unchosen] }))).toBe(PALETTE[9 % PALETTE.length]);
    expect(colourFor(makeEvent({ calendar: 1, categories: [] }))).toBeUndefined();
  });
});
