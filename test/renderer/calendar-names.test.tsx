// @vitest-environment happy-dom
/**
 * Issue 27 §5.10: the calendar kept on this computer is named by the server in English; a
 * Portuguese or Spanish reader sees it in their language until they rename it, and the
 * calendar dialog saves no rename the user did not type.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18n from '../../renderer/src/i18n';
import type { CalendarJson } from '@shared/schema/accounts';
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
