// @vitest-environment happy-dom
/**
 * Websites in the sidebar and the editor (issue 26), against the `/sites` routes as `/doc` describes them
 * through a stand-in fetch: "Connect a website…" with a refusal told on the field the API names,
 * a site's calendar under its site with its sync state in words, Sync now, Remove after asking,
 * and the Repeat control's word on sites that take no repeating events. In three languages.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../renderer/src/i18n';
import type { CalendarJson } from '@shared/schema/accounts';
import type { SiteAuthorizeResult } from '@shared/desktop-bridge';
import { Calendars } from '../../renderer/src/sidebar/Calendars';
import { EventEditor } from '../../renderer/src/editor/EventEditor';
import { useCalendars } from '../../renderer/src/state/calendars';
import { useSites, type SiteJson } from '../../renderer/src/state/sites';
import { useSyncStatus } from '../../renderer/src/state/syncStatus';
import type { SiteSyncJson } from '@shared/schema/sites';
import { useSettings } from '../../renderer/src/state/settings';
import { useEvents } from '../../renderer/src/state/events';
import { useToasts } from '../../renderer/src/state/toasts';
import { useUi } from '../../renderer/src/state/ui';
import { runCommand } from '../../renderer/src/desktop';
import { makeEvent, mockApi, makeCalendar, minutesAgo } from './helpers';

const cal = makeCalendar;
const site = (over: Partial<SiteJson> = {}): SiteJson => ({
  id: 4,
  name: 'Jazz Club',
  url: 'https://jazz.example.org',
  api_root: 'https://jazz.example.org/wp-json/tribe/events/v1/',
  user: 'ana',
  calendar_id: 7,
  color: '#1badf8',
  created: minutesAgo(60),
  last_sync: minutesAgo(5),
  last_error: null,
  pending: 2,
  conflicts: 1,
  state: 'ok',
  repeats: false,
  refused: [],
  ...over,
});
/** A site's part of `GET /sync`, from what `GET /sites` says of it. */
const syncOf = (s: SiteJson): SiteSyncJson => ({ id: s.id, name: s.name, calendar_id: s.calendar_id, last_sync: s.last_sync, pending: s.pending, last_error: s.last_error, conflicts: s.conflicts, state: s.state, next_try: null, refused: s.refused });
const CALENDARS = [cal(1, 'On this computer'), cal(7, 'Jazz Club', { color: '#1badf8', synced: true, site: { id: 4, url: 'https://jazz.example.org', repeats: false } })];

/** The server's answers for the sidebar; `extra` adds or replaces routes. */
function server(extra: Parameters<typeof mockApi>[0] = {}, sites: SiteJson[] = [site()]) {
  return mockApi({
    'GET calendars': { body: CALENDARS },
    'GET accounts': { body: [] },
    'GET sync': { body: { accounts: [], conflicts: [], sites: sites.map(syncOf) } },
    'GET sites': { body: sites },
    ...extra,
  });
}

async function showSidebar() {
  await useCalendars.getState().load();
  await useSites.getState().load();
  render(<Calendars />);
}

beforeEach(async () => {
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
  useCalendars.setState({ calendars: [], accounts: [], loaded: false });
  useSites.setState({ sites: [], available: true, loaded: false });
  useSyncStatus.setState({ status: { accounts: [], conflicts: [] }, unavailable: false });
  useEvents.setState({ events: [], query: null });
  useToasts.setState({ toasts: [] });
});
afterEach(cleanup);

describe('a site in the sidebar', () => {
  it('lists its calendar under the site, not with this computer’s, with its sync state in words', async () => {
    server();
    await showSidebar();
    const section = screen.getByRole('region', { name: 'Jazz Club' });
    // Its calendar, shown or hidden like any.
    expect(within(section).getByRole('checkbox', { name: 'Jazz Club' })).toBeTruthy();
    expect(screen.getAllByRole('checkbox', { name: 'Jazz Club' })).toHaveLength(1);
    const status = within(section).getByRole('group', { name: 'Sync of Jazz Club' });
    expect(status.textContent).toContain('Last synced 5 minutes ago');
    expect(status.textContent).toContain('2 changes waiting to be sent');
    expect(status.textContent).toContain('1 sync conflict');
  });

  it('shows its last error, and a refused password as such', async () => {
    server({}, [site({ state: 'password', last_error: 'The site refused the password (401).', pending: 0, conflicts: 0 })]);
    await showSidebar();
    const status = screen.getByRole('group', { name: 'Sync of Jazz Club' });
    expect(status.textContent).toContain('The site refused the password (401).');
    expect(status.textContent).toContain('connect it again with a new application password');
    expect(status.textContent).not.toContain('waiting');
  });

  it('hides and shows its calendar', async () => {
    const api = server({ 'PATCH calendars/:id': (c) => ({ body: { ...CALENDARS[1], ...(c.body as object) } }) });
    await showSidebar();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Jazz Club' }));
    await waitFor(() => expect(api.to('PATCH', 'calendars/7')).toHaveLength(1));
    expect(api.to('PATCH', 'calendars/7')[0].body).toEqual({ visible: false });
  });

  it('Sync now asks for that site’s round and follows it until it is over', async () => {
    let asked = 0;
    const api = server({
      'POST sync': { status: 202, body: {} },
      // Syncing on the first look after the ask, done on the next.
      'GET sync': () => ({ body: { accounts: [], conflicts: [], sites: [syncOf(asked++ === 1 ? site({ state: 'syncing' }) : site({ last_sync: new Date().toISOString(), pending: 0 }))] } }),
    });
    await showSidebar();
    fireEvent.click(screen.getByRole('button', { name: 'Sync Jazz Club now' }));
    await waitFor(() => expect(api.to('POST', 'sync')).toHaveLength(1));
    expect(api.to('POST', 'sync')[0].url.searchParams.get('site')).toBe('Jazz Club');
    await waitFor(() => expect(screen.getByRole('group', { name: 'Sync of Jazz Club' }).textContent).toContain('Last synced now'));
    expect(api.to('GET', 'sync').length).toBeGreaterThanOrEqual(3);
    expect(screen.getByRole('group', { name: 'Sync of Jazz Club' }).textContent).not.toContain('waiting');
  });

  it('a refused Sync now still shows the site’s state, its error in words', async () => {
    let asked = false;
    const api = server({
      'POST sync': () => {
        asked = true;
        return { status: 502, body: { code: 'site-unreachable', message: 'The website could not be reached.', data: { status: 502 } } };
      },
      'GET sync': () => ({ body: { accounts: [], conflicts: [], sites: [syncOf(asked ? site({ state: 'error', last_error: 'The website could not be reached (connection refused).' }) : site())] } }),
    });
    await showSidebar();
    // The section's own look after it appeared is over: what follows is the click's doing.
    await waitFor(() => expect(api.to('GET', 'sync').length).toBeGreaterThanOrEqual(2));
    fireEvent.click(screen.getByRole('button', { name: 'Sync Jazz Club now' }));
    await waitFor(() => expect(screen.getByRole('group', { name: 'Sync of Jazz Club' }).textContent).toContain('could not be reached (connection refused)'));
    expect(useToasts.getState().toasts.map((t) => t.message)).toContain('The website could not be reached.');
  });

  it('Remove asks first; Cancel removes nothing, Remove takes it off', async () => {
    const api = server({ 'DELETE sites/:id': { body: { deleted: true, previous: site() } } });
    await showSidebar();
    fireEvent.click(screen.getByRole('button', { name: 'Remove website Jazz Club' }));
    let dialog = screen.getByRole('dialog', { name: 'Remove the website Jazz Club?' });
    expect(dialog.textContent).toContain('Nothing is deleted on the website');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.to('DELETE', 'sites/4')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Remove website Jazz Club' }));
    dialog = screen.getByRole('dialog', { name: 'Remove the website Jazz Club?' });
    api.routes['GET calendars'] = { body: [CALENDARS[0]] };
    api.routes['GET sites'] = { body: [] };
    api.routes['GET sync'] = { body: { accounts: [], conflicts: [], sites: [] } };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove website' }));
    await waitFor(() => expect(api.to('DELETE', 'sites/4')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Jazz Club' })).toBeNull());
    expect(screen.queryByRole('checkbox', { name: 'Jazz Club' })).toBeNull();
  });

  it('a conflict copy of a site’s event offers “Keep the site’s”, and resolves as CalDAV’s do', async () => {
    const kept = new Date().toISOString();
    const api = server({
      'GET sync': { body: { accounts: [], sites: [], conflicts: [{ id: 31, calendar: 7, uid: 'u', title: 'Gig', kept }] } },
      'DELETE sync/conflicts/:id': { body: { deleted: true } },
    });
    await showSidebar();
    expect(screen.getByRole('button', { name: 'Keep my version of Gig' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Keep the server’s version of Gig' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Keep the site’s version of Gig' }));
    await waitFor(() => expect(api.to('DELETE', 'sync/conflicts/31')).toHaveLength(1));
  });

  it('offers nothing where the server has no sites (an older server)', async () => {
    mockApi({ 'GET calendars': { body: [CALENDARS[0]] }, 'GET accounts': { body: [] }, 'GET sync': { body: { accounts: [], conflicts: [] } } });
    await showSidebar();
    expect(screen.getByRole('button', { name: 'Add account…' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Connect a website…' })).toBeNull();
  });
});

describe('Connect a website…', () => {
  const fill = (dialog: HTMLElement, values: Record<string, string>) => {
    for (const [label, value] of Object.entries(values)) fireEvent.change(within(dialog).getByLabelText(label, { exact: false }), { target: { value } });
  };

  it('asks for the address, user, application password and a name; the password field is a password field, empty', async () => {
    server({}, []);
    await showSidebar();
    fireEvent.click(screen.getByRole('button', { name: 'Connect a website…' }));
    const dialog = screen.getByRole('dialog', { name: 'Connect a website' });
    const password = within(dialog).getByLabelText('Application password', { exact: false }) as HTMLInputElement;
    expect(password.type).toBe('password');
    expect(password.value).toBe('');
    for (const label of ['Website address', 'User name', 'Name (optional)']) expect(within(dialog).getByLabelText(label, { exact: false })).toBeTruthy();
  });

  it('a missing field is told before anything is sent', async () => {
    const api = server({}, []);
    await showSidebar();
    fireEvent.click(screen.getByRole('button', { name: 'Connect a website…' }));
    const dialog = screen.getByRole('dialog', { name: 'Connect a website' });
    fill(dialog, { 'Website address': 'jazz.example.org' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Application password', { exact: false }).getAttribute('aria-invalid')).toBe('true'));
    expect(api.to('POST', 'sites')).toHaveLength(0);
  });

  it('a refusal is told on the field the API names; then it connects with what was typed and pasted', async () => {
    let tries = 0;
    const api = server(
      {
        'POST sites': (c) =>
          ++tries === 1
            ? { status: 422, body: { code: 'site-unauthorized', message: 'The site refused the login.', data: { status: 422, params: { password: 'The site refused this application password: check it, or make a new one.' } } } }
            : { status: 201, body: site({ name: (c.body as { name: string }).name, pending: 0, conflicts: 0, state: 'syncing', last_sync: null }) },
      },
      [],
    );
    await showSidebar();
    fireEvent.click(screen.getByRole('button', { name: 'Connect a website…' }));
    const dialog = screen.getByRole('dialog', { name: 'Connect a website' });
    fill(dialog, { 'Website address': ' jazz.example.org ', 'User name': 'ana', 'Application password': 'abcd EFGH ijkl MNOP qrst UVWX\n', 'Name (optional)': 'Jazz Club' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    const password = within(dialog).getByLabelText('Application password', { exact: false });
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    expect(dialog.textContent).toContain('The site refused this application password');
    expect(within(dialog).getByLabelText('Website address', { exact: false }).getAttribute('aria-invalid')).not.toBe('true');
    expect(api.to('POST', 'sites')[0].body).toEqual({ url: 'jazz.example.org', user: 'ana', password: 'abcd EFGH ijkl MNOP qrst UVWX', name: 'Jazz Club' });
    // Errors come in the interface's language.
    expect(api.to('POST', 'sites')[0].url.searchParams.get('i18n_language')).toBe('en');

    // The site's calendar exists once it is connected.
    api.routes['GET sites'] = { body: [site()] };
    fireEvent.change(password, { target: { value: 'right-one' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Connect a website' })).toBeNull());
    expect(useToasts.getState().toasts.map((t) => t.message)).toContain('Connected Jazz Club: its events are on their way');
    await waitFor(() => expect(screen.getByRole('region', { name: 'Jazz Club' })).toBeTruthy());
    expect(api.to('GET', 'calendars').length).toBeGreaterThanOrEqual(2);
  });

  it('an address that is not such a site is told on the address', async () => {
    server(
      { 'POST sites': { status: 422, body: { code: 'site-not-found', message: 'Not a site with the events API.', data: { status: 422, params: { url: 'No events calendar answers at this address.' } } } } },
      [],
    );
    await showSidebar();
    fireEvent.click(screen.getByRole('button', { name: 'Connect a website…' }));
    const dialog = screen.getByRole('dialog', { name: 'Connect a website' });
    fill(dialog, { 'Website address': 'example.org', 'User name': 'ana', 'Application password': 'x' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    const url = within(dialog).getByLabelText('Website address', { exact: false });
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(dialog.textContent).toContain('No events calendar answers at this address.');
  });

  it.each([
    ['pt-br', 'Conectar um site…', 'Conectar um site', 'Senha de aplicativo'],
    ['es', 'Conectar un sitio web…', 'Conectar un sitio web', 'Contraseña de aplicación'],
  ])('in %s', async (lang, button, title, password) => {
    useSettings.setState({ uiLanguage: lang as 'es' });
    await i18n.changeLanguage(lang);
    server({}, []);
    await showSidebar();
    fireEvent.click(screen.getByRole('button', { name: button }));
    const dialog = screen.getByRole('dialog', { name: title });
    expect(within(dialog).getByLabelText(password, { exact: false })).toBeTruthy();
  });
});

describe('the Repeat control on a site’s calendar', () => {
  const note = () => screen.queryByRole('note');
  function open(calendar: number) {
    const e = makeEvent({ id: 8, title: 'Gig', calendar });
    useUi.setState({ editor: { kind: 'edit', event: e } });
    render(<EventEditor target={{ kind: 'edit', event: e }} />);
  }

  it('says a site that does not take repeating events does not, and not elsewhere', async () => {
    useCalendars.setState({ calendars: CALENDARS });
    useSites.setState({ sites: [site({ repeats: false })] });
    open(7);
    expect(note()?.textContent).toContain('“Jazz Club” does not take repeating events');
    cleanup();
    open(1);
    expect(note()).toBeNull();
    // Moving the event to the site's calendar says it there and then.
    fireEvent.change(screen.getByRole('combobox', { name: 'Calendar' }), { target: { value: '7' } });
    expect(note()?.textContent).toContain('“Jazz Club” does not take repeating events');
  });

  it('says nothing for a site that takes them (another Almanac)', () => {
    useCalendars.setState({ calendars: CALENDARS });
    useSites.setState({ sites: [site({ repeats: true })] });
    open(7);
    expect(note()).toBeNull();
  });
});

describe('records the site refused', () => {
  const refusal = (over: Partial<SiteJson['refused'][number]> = {}): SiteJson['refused'][number] => ({
    id: 31,
    direction: 'push',
    kind: 'event',
    title: 'Late show',
    reason: 'The site refused "Late show" (HTTP 400: Invalid parameter(s): venue); it is tried again in an hour.',
    status: 400,
    at: minutesAgo(3),
    local_id: 12,
    remote_id: 90,
    ...over,
  });

  it('are counted on the site’s row; the list opens on click, each with the reason, to try again or discard', async () => {
    let refused = [refusal(), refusal({ id: 32, direction: 'pull', title: 'Poetry slam', reason: 'Invalid parameter(s): start_date', status: null })];
    const api = server({
      'GET sites': () => ({ body: [site({ refused })] }),
      'GET sync': () => ({ body: { accounts: [], conflicts: [], sites: [syncOf(site({ refused }))] } }),
      'POST sync/refusals/:id/retry': { status: 202, body: {} },
      'DELETE sync/refusals/:id': () => {
        refused = refused.filter((r) => r.id !== 31);
        return { body: {} };
      },
    });
    await showSidebar();
    const status = screen.getByRole('group', { name: 'Sync of Jazz Club' });
    const count = within(status).getByRole('button', { name: '2 records not synced' });
    expect(count.getAttribute('title')).toContain('Late show');
    expect(screen.queryByRole('list', { name: 'What Jazz Club refused' })).toBeNull();
    fireEvent.click(count);
    const list = screen.getByRole('list', { name: 'What Jazz Club refused' });
    expect(list.textContent).toContain('Not sent: The site refused "Late show" (HTTP 400: Invalid parameter(s): venue)');
    expect(list.textContent).toContain('Not taken from the site: Invalid parameter(s): start_date');
    // A pull's notice has nothing to try again.
    expect(within(list).queryByRole('button', { name: 'Try “Poetry slam” again' })).toBeNull();
    fireEvent.click(within(list).getByRole('button', { name: 'Try “Late show” again' }));
    await waitFor(() => expect(api.to('POST', 'sync/refusals/31/retry')).toHaveLength(1));
    const discard = within(list).getByRole('button', { name: 'Discard the change to “Late show” (the site’s version comes back)' }) as HTMLButtonElement;
    // One action at a time: the retry's round is followed to its end first.
    await waitFor(() => expect(discard.disabled).toBe(false));
    fireEvent.click(discard);
    await waitFor(() => expect(api.to('DELETE', 'sync/refusals/31')).toHaveLength(1));
    await waitFor(() => expect(within(status).getByRole('button', { name: '1 record not synced' })).toBeTruthy());
  });

  it('in Portuguese and Spanish', async () => {
    for (const [lang, words] of [['pt-br', '1 registro não sincronizado'], ['es', '1 registro no sincronizado']] as const) {
      useSettings.setState({ uiLanguage: lang, contentLanguage: lang });
      await i18n.changeLanguage(lang);
      server({}, [site({ refused: [refusal()] })]);
      await showSidebar();
      expect(screen.getByRole('button', { name: words })).toBeTruthy();
      cleanup();
    }
  });
});

describe('an occurrence a site generates from its repeating event', () => {
  const open = () => {
    const e = makeEvent({ id: 8, title: 'Morning yoga', calendar: 7, read_only: { reason: 'site_occurrence', series: 4242 } });
    useUi.setState({ editor: { kind: 'edit', event: e } });
    render(<EventEditor target={{ kind: 'edit', event: e }} />);
  };

  it('opens in the editor with the reason, and no Save or Delete', async () => {
    useCalendars.setState({ calendars: CALENDARS });
    useSites.setState({ sites: [site()] });
    open();
    expect(screen.getByRole('status').textContent).toContain('an occurrence that the website “Jazz Club” generates from a repeating event');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Title' }).closest('fieldset')?.disabled).toBe(true);
    cleanup();
    for (const [lang, words] of [['pt-br', 'uma ocorrência que o site “Jazz Club” gera'], ['es', 'una repetición que el sitio “Jazz Club” genera']] as const) {
      useSettings.setState({ uiLanguage: lang, contentLanguage: lang });
      await i18n.changeLanguage(lang);
      open();
      expect(screen.getByRole('status').textContent).toContain(words);
      cleanup();
    }
  });

  it('the same event of the site without the reason is edited as any', () => {
    useCalendars.setState({ calendars: CALENDARS });
    useSites.setState({ sites: [site()] });
    const e = makeEvent({ id: 9, title: 'Gig', calendar: 7 });
    render(<EventEditor target={{ kind: 'edit', event: e }} />);
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
  });
});

describe('approving Almanac on the site’s page (desktop app)', () => {
  const bridge = (authorizeSite: (address: string) => Promise<SiteAuthorizeResult>) => {
    window.almanac = { apiBase: 'http://127.0.0.1:4780/cal/events/v1/', token: 't', version: '1', importFile: vi.fn(), exportFile: vi.fn(), openDataFolder: vi.fn(), onCommand: () => () => {}, authorizeSite };
  };
  afterEach(() => {
    delete window.almanac;
  });

  it('is offered only in the desktop app', async () => {
    server({}, []);
    await showSidebar();
    fireEvent.click(screen.getByRole('button', { name: 'Connect a website…' }));
    expect(screen.queryByRole('button', { name: 'Approve in the browser instead' })).toBeNull();
  });

  it('opens the site’s page for the address typed, and says why when it cannot', async () => {
    const authorizeSite = vi.fn().mockResolvedValueOnce({ status: 'failed', reason: 'no-authorization' }).mockResolvedValueOnce({ status: 'opened' });
    bridge(authorizeSite);
    server({}, []);
    await showSidebar();
    fireEvent.click(screen.getByRole('button', { name: 'Connect a website…' }));
    const dialog = screen.getByRole('dialog', { name: 'Connect a website' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve in the browser instead' }));
    // No address yet: nothing is asked.
    await waitFor(() => expect(within(dialog).getByLabelText('Website address', { exact: false }).getAttribute('aria-invalid')).toBe('true'));
    expect(authorizeSite).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('Website address', { exact: false }), { target: { value: 'jazz.example.org' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve in the browser instead' }));
    await waitFor(() => expect(dialog.textContent).toContain('does not approve apps from the browser: paste an application password instead'));
    expect(authorizeSite).toHaveBeenCalledWith('jazz.example.org');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve in the browser instead' }));
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toContain('the password comes back here by itself'));
  });

  it('what the site sends back fills the dialog, and connects only when the user says so', async () => {
    bridge(vi.fn());
    const api = server({ 'POST sites': { status: 201, body: site() } }, []);
    await showSidebar();
    await runCommand({ name: 'site-authorized', url: 'jazz.example.org', user: 'ana', password: 'abcd efgh ijkl' });
    const dialog = await screen.findByRole('dialog', { name: 'Connect a website' });
    expect((within(dialog).getByLabelText('Website address', { exact: false }) as HTMLInputElement).value).toBe('jazz.example.org');
    expect((within(dialog).getByLabelText('User name', { exact: false }) as HTMLInputElement).value).toBe('ana');
    expect((within(dialog).getByLabelText('Application password', { exact: false }) as HTMLInputElement).value).toBe('abcd efgh ijkl');
    expect(within(dialog).getByRole('status').textContent).toContain('The site approved Almanac');
    // Kept nowhere but in the dialog.
    expect(useSites.getState().authorized).toBeNull();
    expect(api.to('POST', 'sites')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(api.to('POST', 'sites')).toHaveLength(1));
    expect(api.to('POST', 'sites')[0].body).toEqual({ url: 'jazz.example.org', user: 'ana', password: 'abcd efgh ijkl' });
  });
});
