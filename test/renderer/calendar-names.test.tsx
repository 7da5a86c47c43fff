// @vitest-environment happy-dom
/**
 * Issue 27 §5.10: the calendar kept on this computer is named by the server in English; a
 * Portuguese or Spanish reader sees it in their language until they rename it, and the
 * calendar dialog saves no rename the user did not type.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../renderer/src/i18n';
import type { AccountJson, CalendarJson } from '@shared/schema/accounts';
import type { Language } from '@shared/i18n/languages';
import { Calendars } from '../../renderer/src/sidebar/Calendars';
import { useCalendars } from '../../renderer/src/state/calendars';
import { useSettings } from '../../renderer/src/state/settings';
import { mockApi } from './helpers';

const local = (name: string): CalendarJson => ({ id: 1, name, color: null, visible: true, account: null, account_id: null, synced: false, read_only: false, subscription: null });

async function as(language: Language) {
  useSettings.setState({ uiLanguage: language, contentLanguage: language });
  await i18n.changeLanguage(language);
}
beforeEach(() => as('en'));
afterEach(cleanup);

describe('the local calendar’s name', () => {
  it.each([
    ['pt-br', 'Neste computador'],
    ['es', 'En este equipo'],
    ['en', 'On this computer'],
  ] as const)('in %s reads “%s”', async (language, name) => {
    await as(language);
    useCalendars.setState({ calendars: [local('On this computer')], accounts: [], loaded: true });
    render(<Calendars />);
    expect(screen.getByText(name)).toBeTruthy();
    if (language !== 'en') expect(screen.queryByText('On this computer')).toBeNull();
  });

  it('a name the user chose stays as they wrote it; opening and saving the dialog renames nothing', async () => {
    await as('pt-br');
    const api = mockApi({ 'PATCH calendars/:id': { body: local('x') } });
    useCalendars.setState({ calendars: [local('On this computer')], accounts: [], loaded: true });
    render(<Calendars />);
    fireEvent.click(screen.getByRole('button', { name: /Neste computador/ }));
    const name = (await screen.findByRole('textbox', { name: 'Nome' })) as HTMLInputElement;
    expect(name.value).toBe('Neste computador');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Nome' })).toBeNull());
    expect(api.to('PATCH', 'calendars/1')).toHaveLength(0);
    cleanup();
    useCalendars.setState({ calendars: [local('Casa')], accounts: [], loaded: true });
    render(<Calendars />);
    expect(screen.getByText('Casa')).toBeTruthy();
  });
});

describe('calendars of this computer (issue 27)', () => {
  const cal = (id: number, name: string, color: string | null = null): CalendarJson => ({ ...local(name), id, color });

  it('makes one with a name and a colour', async () => {
    await as('en');
    const api = mockApi({ 'POST calendars': (c) => ({ status: 201, body: { ...cal(5, 'Family', '#ff2968'), ...(c.body as object) } }) });
    useCalendars.setState({ calendars: [local('On this computer')], accounts: [], loaded: true });
    render(<Calendars />);
    fireEvent.click(screen.getByRole('button', { name: 'New calendar…' }));
    const dialog = screen.getByRole('dialog', { name: 'New calendar on this computer' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('This field is required.', { exact: false })).toBeTruthy();
    expect(api.to('POST', 'calendars')).toHaveLength(0);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Family' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.to('POST', 'calendars')[0].body).toEqual({ name: 'Family' });
    expect(screen.getByText('Family')).toBeTruthy();
  });

  it('a rename pressed twice before the first answer is sent once', async () => {
    await as('en');
    let answer: (r: { status: number; body: unknown }) => void = () => {};
    const api = mockApi({ 'PATCH calendars/:id': () => new Promise((ok) => (answer = ok)) });
    useCalendars.setState({ calendars: [local('On this computer'), cal(6, 'Work')], accounts: [], loaded: true });
    render(<Calendars />);
    fireEvent.click(screen.getByRole('button', { name: /Settings of Work/ }));
    const dialog = screen.getByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Office' } });
    // Two Enters in a row, the second before the dialog is drawn again.
    const form = within(dialog).getByRole('button', { name: 'Save' }).closest('form')!;
    act(() => {
      form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
      form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
    await waitFor(() => expect(api.to('PATCH', 'calendars/6')).toHaveLength(1));
    answer({ status: 200, body: cal(6, 'Office') });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.to('PATCH', 'calendars/6')).toHaveLength(1);
    expect(api.to('PATCH', 'calendars/6')[0].body).toEqual({ name: 'Office' });
    expect(screen.getByText('Office')).toBeTruthy();
  });

  it('deletes one, its events moved to the calendar chosen or deleted; "On this computer" has no Delete', async () => {
    await as('en');
    const api = mockApi({
      'DELETE calendars/:id': { body: { id: 6, removed: true, events: 'moved', move_to: 5 } },
      'GET calendars': { body: [local('On this computer'), cal(5, 'Family')] },
      'GET accounts': { body: [] },
      'GET sync': { body: { accounts: [], conflicts: [] } },
      'GET events': { body: { events: [], total: 0, total_pages: 0 } },
    });
    useCalendars.setState({ calendars: [local('On this computer'), cal(5, 'Family'), cal(6, 'Work')], accounts: [], loaded: true });
    render(<Calendars />);
    fireEvent.click(screen.getByRole('button', { name: /Settings of On this computer/ }));
    expect(within(screen.getByRole('dialog')).queryByRole('button', { name: 'Delete calendar' })).toBeNull();
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: /Settings of Work/ }));
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete calendar' }));
    const where = within(dialog).getByRole('combobox', { name: 'Its events' });
    expect(Array.from((where as HTMLSelectElement).options).map((o) => o.textContent)).toEqual(['Move them to “On this computer”', 'Move them to “Family”', 'Delete them for good']);
    fireEvent.change(where, { target: { value: '5' } });
    expect(api.to('DELETE', 'calendars/6')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete the calendar' }));
    await waitFor(() => expect(api.to('DELETE', 'calendars/6')).toHaveLength(1));
    const q = api.to('DELETE', 'calendars/6')[0].url.searchParams;
    expect([q.get('events'), q.get('move_to')]).toEqual(['move', '5']);
    await waitFor(() => expect(screen.queryByText('Work')).toBeNull());
  });
});

describe('a calendar’s settings', () => {
  const work: CalendarJson = { ...local('Work'), id: 5, account: 'Home', account_id: 2, synced: true };

  it('a server’s calendar unticked from Synced sends that alone; an emptied name is told on it and nothing is sent', async () => {
    await as('en');
    const api = mockApi({ 'PATCH calendars/:id': (c) => ({ body: { ...work, ...(c.body as object) } }) });
    const home: AccountJson = { id: 2, name: 'Home', server_url: 'https://dav.example.org/', username: 'ana', created: '2031-03-01T00:00:00Z', last_sync: null, last_error: null, calendars: [work] };
    useCalendars.setState({ calendars: [local('On this computer'), work], accounts: [home], loaded: true });
    render(<Calendars />);
    fireEvent.click(screen.getByRole('button', { name: /Settings of Work/ }));
    let dialog = screen.getByRole('dialog');
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    fireEvent.change(name, { target: { value: '  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(dialog.textContent).toContain('This field is required.');
    expect(api.to('PATCH', 'calendars/5')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    fireEvent.click(screen.getByRole('button', { name: /Settings of Work/ }));
    dialog = screen.getByRole('dialog');
    const synced = within(dialog).getByRole('checkbox', { name: 'Synced' }) as HTMLInputElement;
    expect(synced.checked).toBe(true);
    fireEvent.click(synced);
    expect(synced.checked).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.to('PATCH', 'calendars/5').map((c) => c.body)).toEqual([{ synced: false }]);
    expect(screen.getByText('not synced')).toBeTruthy();
  });
});
