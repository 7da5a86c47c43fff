// @vitest-environment happy-dom
/**
 * The sidebar's sync state comes from one place: `GET /sync` carries the CalDAV accounts' and the
 * websites' state, so the sidebar asks it alone, once per poll and once after the events on screen
 * change, never `GET /sites` beside it for the same words. And a site's state (last sync, changes
 * waiting, its error, a round going on) is still shown, as `GET /sync` says it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import i18n from '../../renderer/src/i18n';
import type { AccountSyncJson, CalendarJson } from '@shared/schema/accounts';
import type { SiteJson, SiteSyncJson } from '@shared/schema/sites';
import { Calendars } from '../../renderer/src/sidebar/Calendars';
import { useCalendars } from '../../renderer/src/state/calendars';
import { useSites } from '../../renderer/src/state/sites';
import { useSyncStatus, REFRESH_MS, AFTER_CHANGE_MS } from '../../renderer/src/state/syncStatus';
import { useSettings } from '../../renderer/src/state/settings';
import { useEvents } from '../../renderer/src/state/events';
import { makeEvent, mockApi, makeCalendar, minutesAgo } from './helpers';

const cal = makeCalendar;
const CALENDARS = [cal(1, 'On this computer'), cal(5, 'Work', { account: 'Office', account_id: 2, synced: true }), cal(7, 'Jazz Club', { synced: true, site: { id: 4, url: 'https://jazz.example.org', repeats: false } })];
const SITE: SiteJson = { id: 4, name: 'Jazz Club', url: 'https://jazz.example.org', api_root: 'https://jazz.example.org/wp-json/tribe/events/v1/', user: 'ana', calendar_id: 7, color: null, created: minutesAgo(600), last_sync: minutesAgo(5), last_error: null, pending: 0, conflicts: 0, state: 'ok', repeats: false, refused: [] };
const siteSync = (over: Partial<SiteSyncJson> = {}): SiteSyncJson => ({ id: 4, name: 'Jazz Club', calendar_id: 7, last_sync: SITE.last_sync, pending: 0, last_error: null, conflicts: 0, state: 'ok', next_try: null, refused: [], ...over });
const accountSync = (over: Partial<AccountSyncJson> = {}): AccountSyncJson => ({ id: 2, name: 'Office', last_sync: minutesAgo(3), last_error: null, syncing: false, pending: 0, next_try: null, calendars: [], ...over });

function server() {
  return mockApi({
    'GET calendars': { body: CALENDARS },
    'GET accounts': { body: [{ id: 2, name: 'Office', server_url: 'https://dav.example.org/', username: 'ana', created: minutesAgo(900), last_sync: minutesAgo(3), last_error: null, calendars: [CALENDARS[1]] }] },
    'GET sync': { body: { accounts: [accountSync()], sites: [siteSync()], conflicts: [] } },
    'GET sites': { body: [SITE] },
  });
}

/** Runs the (fake) clock forward, letting each answer and each render land. */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
/** "GET sync", "GET sites"… of the requests from the `from`th on. */
const asked = (api: ReturnType<typeof server>, from: number) => api.calls.slice(from).map((c) => `${c.method} ${c.url.pathname.replace(/^\/cal\/events\/v1\//, '')}`);

async function showSidebar(api: ReturnType<typeof server>) {
  await useCalendars.getState().load();
  await useSites.getState().load();
  render(<Calendars />);
  // The section's own first look is over: what follows is what the test does.
  await pass(AFTER_CHANGE_MS + 100);
  return api.calls.length;
}

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
  useCalendars.setState({ calendars: [], accounts: [], loaded: false });
  useSites.setState({ sites: [], available: true, loaded: false });
  useSyncStatus.setState({ status: { accounts: [], conflicts: [] }, unavailable: false });
  useEvents.setState({ events: [], query: null });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the sidebar’s sync state', () => {
  it('with an account and a website, each poll asks GET /sync once and nothing else', async () => {
    const api = server();
    const from = await showSidebar(api);
    await pass(REFRESH_MS);
    expect(asked(api, from)).toEqual(['GET sync']);
    await pass(REFRESH_MS);
    expect(asked(api, from)).toEqual(['GET sync', 'GET sync']);
  });

  it('after the events on screen change, one GET /sync and nothing else', async () => {
    const api = server();
    const from = await showSidebar(api);
    act(() => useEvents.setState({ events: [makeEvent({ id: 9, title: 'Gig', calendar: 7 } as never)] }));
    await pass(AFTER_CHANGE_MS + 100);
    expect(asked(api, from)).toEqual(['GET sync']);
  });

  it('shows a site’s last sync, changes waiting, its error and a round going on as GET /sync says them', async () => {
    const api = server();
    await showSidebar(api);
    const status = () => screen.getByRole('group', { name: 'Sync of Jazz Club' }).textContent;
    expect(status()).toContain('Last synced 5 minutes ago');
    expect(status()).not.toContain('waiting');

    // A background round failed and left changes waiting: GET /sites is not asked again, GET /sync tells it.
    api.routes['GET sync'] = { body: { accounts: [accountSync({ pending: 1 })], sites: [siteSync({ last_sync: minutesAgo(2), pending: 3, state: 'error', last_error: 'The website could not be reached (connection refused).' })], conflicts: [] } };
    await pass(REFRESH_MS);
    expect(status()).toContain('Last synced 2 minutes ago');
    expect(status()).toContain('3 changes waiting to be sent');
    expect(status()).toContain('The website could not be reached (connection refused).');
    // The account's state comes in the same answer.
    expect(screen.getByRole('group', { name: 'Sync of Office' }).textContent).toContain('1 change waiting to be sent');

    // A round under way.
    api.routes['GET sync'] = { body: { accounts: [accountSync()], sites: [siteSync({ state: 'syncing', pending: 3 })], conflicts: [] } };
    await pass(REFRESH_MS);
    expect(status()).toContain('Syncing…');
    expect(screen.getByRole('button', { name: 'Sync Jazz Club now' }).hasAttribute('disabled')).toBe(true);
    expect(api.to('GET', 'sites')).toHaveLength(1);
  });
});
