// @vitest-environment happy-dom
/**
 * "Add account…", "Connect a website…" and "New calendar…" share one form (components/FieldForm):
 * in each, in the three languages, a required field left empty is told on it and nothing is sent;
 * the server's refusal is told on the field it names (and on no other), or above the fields when
 * it names none; changing the field takes its error away; Save is held while the form is sent, so
 * a second press sends nothing more.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../renderer/src/i18n';
import type { CalendarJson } from '@shared/schema/accounts';
import { Calendars } from '../../renderer/src/sidebar/Calendars';
import { useCalendars } from '../../renderer/src/state/calendars';
import { useSites } from '../../renderer/src/state/sites';
import { useSettings } from '../../renderer/src/state/settings';
import { useSyncStatus } from '../../renderer/src/state/syncStatus';
import { mockApi } from './helpers';

type Lang = 'en' | 'pt-br' | 'es';
const local: CalendarJson = { id: 1, name: 'On this computer', color: null, visible: true, account: null, account_id: null, synced: false, read_only: false, subscription: null, site: null };

/** What a user reads in each language: the buttons, the dialogs, the fields, the required error. */
const WORDS: Record<Lang, { required: string; account: Record<string, string>; site: Record<string, string>; calendar: Record<string, string> }> = {
  en: {
    required: 'This field is required.',
    account: { open: 'Add account…', title: 'Add a CalDAV account', save: 'Add account', url: 'Server address', user: 'User name', password: 'Password' },
    site: { open: 'Connect a website…', title: 'Connect a website', save: 'Connect', url: 'Website address', user: 'User name', password: 'Application password' },
    calendar: { open: 'New calendar…', title: 'New calendar on this computer', save: 'Create', name: 'Name' },
  },
  'pt-br': {
    required: 'Este campo é obrigatório.',
    account: { open: 'Adicionar conta…', title: 'Adicionar uma conta CalDAV', save: 'Adicionar conta', url: 'Endereço do servidor', user: 'Usuário', password: 'Senha' },
    site: { open: 'Conectar um site…', title: 'Conectar um site', save: 'Conectar', url: 'Endereço do site', user: 'Nome de usuário', password: 'Senha de aplicativo' },
    calendar: { open: 'Novo calendário…', title: 'Novo calendário neste computador', save: 'Criar', name: 'Nome' },
  },
  es: {
    required: 'Este campo es obligatorio.',
    account: { open: 'Añadir cuenta…', title: 'Añadir una cuenta CalDAV', save: 'Añadir cuenta', url: 'Dirección del servidor', user: 'Usuario', password: 'Contraseña' },
    site: { open: 'Conectar un sitio web…', title: 'Conectar un sitio web', save: 'Conectar', url: 'Dirección del sitio', user: 'Nombre de usuario', password: 'Contraseña de aplicación' },
    calendar: { open: 'Nuevo calendario…', title: 'Nuevo calendario en este equipo', save: 'Crear', name: 'Nombre' },
  },
};

/** The server's refusals, worded in the request's language as the server words them. */
const REFUSED: Record<Lang, string> = {
  en: 'The server refused this password.',
  'pt-br': 'O servidor recusou esta senha.',
  es: 'El servidor rechazó esta contraseña.',
};

interface Case {
  words: (l: Lang) => Record<string, string>;
  route: string;
  /** Fields filled but `left` (a required one, by its key in `words`). */
  fill: string[];
  left: string;
  /** The field the refusal names, by its key in `words`, and the error's `data`. */
  refused: string;
  data: (message: string) => Record<string, unknown>;
}

const CASES: Record<string, Case> = {
  'Add account…': { words: (l) => WORDS[l].account, route: 'POST accounts', fill: ['url', 'user'], left: 'password', refused: 'password', data: () => ({ status: 422, field: 'password' }) },
  'Connect a website…': { words: (l) => WORDS[l].site, route: 'POST sites', fill: ['url', 'user'], left: 'password', refused: 'password', data: (m) => ({ status: 422, params: { password: m } }) },
  'New calendar…': { words: (l) => WORDS[l].calendar, route: 'POST calendars', fill: [], left: 'name', refused: 'name', data: (m) => ({ status: 400, params: { name: m } }) },
};

/** The sidebar with nothing but this computer's calendar, on a server that has websites. */
function server(extra: Parameters<typeof mockApi>[0]) {
  return mockApi({ 'GET calendars': { body: [local] }, 'GET accounts': { body: [] }, 'GET sync': { body: { accounts: [], sites: [], conflicts: [] } }, 'GET sites': { body: [] }, ...extra });
}

async function openDialog(lang: Lang, c: Case) {
  useSettings.setState({ uiLanguage: lang, contentLanguage: lang });
  await i18n.changeLanguage(lang);
  await useCalendars.getState().load();
  await useSites.getState().load();
  render(<Calendars />);
  fireEvent.click(screen.getByRole('button', { name: c.words(lang).open }));
  return screen.getByRole('dialog', { name: c.words(lang).title });
}

const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(label, { exact: true }) as HTMLInputElement;
const invalid = (el: HTMLElement) => el.getAttribute('aria-invalid') === 'true';

beforeEach(() => {
  useCalendars.setState({ calendars: [], accounts: [], loaded: false });
  useSites.setState({ sites: [], available: false, loaded: false });
  useSyncStatus.setState({ status: { accounts: [], conflicts: [] }, unavailable: false });
});
afterEach(cleanup);

describe.each(Object.keys(CASES))('%s', (name) => {
  const c = CASES[name];

  it.each(['en', 'pt-br', 'es'] as const)('in %s: an empty required field stops Save and is told on it; the server’s refusal lands on the field it names; a change clears it', async (lang) => {
    const w = c.words(lang);
    let answer: (r: { status: number; body: unknown }) => void = () => {};
    const api = server({ [c.route]: () => new Promise((ok) => (answer = ok)) });
    const dialog = await openDialog(lang, c);
    // The same button while its words change ("Connecting…").
    const button = within(dialog).getByRole('button', { name: w.save });
    const save = () => button;

    for (const key of c.fill) fireEvent.change(field(dialog, w[key]), { target: { value: key === 'url' ? 'dav.example.org' : 'ana' } });
    fireEvent.click(save());
    await waitFor(() => expect(invalid(field(dialog, w[c.left]))).toBe(true));
    expect(dialog.textContent).toContain(WORDS[lang].required);
    for (const key of c.fill) expect(invalid(field(dialog, w[key]))).toBe(false);
    const [method, path] = c.route.split(' ');
    expect(api.to(method, path)).toHaveLength(0);

    // Filled: the error goes as it is typed, and Save sends; held while it is sent.
    fireEvent.change(field(dialog, w[c.left]), { target: { value: 'wrong' } });
    expect(invalid(field(dialog, w[c.left]))).toBe(false);
    fireEvent.click(save());
    await waitFor(() => expect(api.to(method, path)).toHaveLength(1));
    await waitFor(() => expect((save() as HTMLButtonElement).disabled).toBe(true));
    fireEvent.submit(save().closest('form')!);
    expect(api.to(method, path)).toHaveLength(1);
    expect(api.to(method, path)[0].url.searchParams.get('i18n_language')).toBe(lang);

    // Refused: told on the field the server names, in its words, and on no other.
    answer({ status: c.data('').status as number, body: { code: 'refused', message: REFUSED[lang], data: c.data(REFUSED[lang]) } });
    await waitFor(() => expect(invalid(field(dialog, w[c.refused]))).toBe(true));
    expect(dialog.textContent).toContain(REFUSED[lang]);
    for (const key of c.fill) expect(invalid(field(dialog, w[key]))).toBe(false);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect((save() as HTMLButtonElement).disabled).toBe(false);
    fireEvent.change(field(dialog, w[c.refused]), { target: { value: 'right' } });
    expect(invalid(field(dialog, w[c.refused]))).toBe(false);
    expect(dialog.textContent).not.toContain(REFUSED[lang]);
  });

  it('a refusal that names no field is told above the fields', async () => {
    const w = c.words('en');
    server({ [c.route]: { status: 500, body: { code: 'broken', message: 'Something went wrong on the server.', data: { status: 500 } } } });
    const dialog = await openDialog('en', c);
    for (const key of [...c.fill, c.left]) fireEvent.change(field(dialog, w[key]), { target: { value: key === 'url' ? 'dav.example.org' : 'ana' } });
    fireEvent.click(within(dialog).getByRole('button', { name: w.save }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('Something went wrong on the server.'));
    for (const key of [...c.fill, c.left]) expect(invalid(field(dialog, w[key]))).toBe(false);
  });
});
