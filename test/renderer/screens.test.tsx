// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../renderer/src/i18n';
import { Filters } from '../../renderer/src/sidebar/Filters';
import { LanguageSettings } from '../../renderer/src/sidebar/Sidebar';
import { Toasts } from '../../renderer/src/components/Toasts';
import { ManageScreen } from '../../renderer/src/manage/ManageScreen';
import { TrashScreen } from '../../renderer/src/manage/TrashScreen';
import { DayList } from '../../renderer/src/calendar/DayList';
import { ExportDialog } from '../../renderer/src/transfer/ExportDialog';
import { handleShortcut } from '../../renderer/src/keyboard';
import { ShortcutsDialog } from '../../renderer/src/components/ShortcutsDialog';
import { runCommand } from '../../renderer/src/desktop';
import { useCalendar } from '../../renderer/src/state/calendar';
import { useEvents } from '../../renderer/src/state/events';
import { useFilters } from '../../renderer/src/state/filters';
import { useLookups } from '../../renderer/src/state/lookups';
import { useSettings } from '../../renderer/src/state/settings';
import { useToasts } from '../../renderer/src/state/toasts';
import { useUi } from '../../renderer/src/state/ui';
import { useUndo } from '../../renderer/src/state/undo';
import { listOf, makeEvent, makeOrganizer, makeTerm, makeVenue, mockApi } from './helpers';

beforeEach(async () => {
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
  useFilters.getState().clear();
  useToasts.setState({ toasts: [] });
  useUndo.getState().clear();
  useUi.setState({ screen: 'calendar', editor: null, quickCreate: null, selectedEventId: null, dayList: null });
  useEvents.setState({ events: [], query: null });
});
afterEach(cleanup);

describe('Filters', () => {
  it('lists categories as a tree and turns checks into list parameters', () => {
    useLookups.setState({
      categories: [makeTerm(1, 'Work'), makeTerm(2, 'Meetings', { parent: 1 }), makeTerm(3, 'Family')],
      tags: [makeTerm(10, 'outdoor')],
      venues: [makeVenue(20, 'Town Hall')],
      organizers: [makeOrganizer(30, 'Arts Council')],
    });
    render(<Filters />);
    const categories = screen.getByRole('group', { name: 'Categories' });
    expect(within(categories).getAllByRole('checkbox').map((c) => c.closest('label')!.textContent)).toEqual(['Family', 'Work', 'Meetings']);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Meetings' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'outdoor' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Town Hall' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Arts Council' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Featured only' }));
    expect(useFilters.getState()).toMatchObject({ categories: [2], tags: [10], venues: [20], organizers: [30], featured: true });
    fireEvent.click(screen.getByRole('button', { name: 'Clear (5)' }));
    expect(useFilters.getState()).toMatchObject({ categories: [], tags: [], venues: [], organizers: [], featured: false });
  });
});

describe('LanguageSettings', () => {
  it('switches the interface language through i18next and the records language separately', async () => {
    render(<LanguageSettings />);
    fireEvent.change(screen.getByLabelText('Records language'), { target: { value: 'es' } });
    expect(useSettings.getState()).toMatchObject({ contentLanguage: 'es', uiLanguage: 'en' });
    fireEvent.change(screen.getByLabelText('Interface language'), { target: { value: 'pt-br' } });
    expect(useSettings.getState().uiLanguage).toBe('pt-br');
    await act(() => i18n.changeLanguage('pt-br'));
    expect(screen.getByLabelText('Idioma da interface')).toBeTruthy();
    expect(screen.getByLabelText('Idioma dos registros')).toBeTruthy();
  });
});

describe('Toasts', () => {
  it('announces errors as alerts and runs a toast’s action', () => {
    const run = vi.fn();
    act(() => {
      useToasts.getState().show({ kind: 'info', message: 'Moved “Dentist” to the trash', action: { label: 'Undo', run } });
      useToasts.getState().show({ kind: 'error', message: 'Sorry, you are not allowed to do that.' });
    });
    render(<Toasts />);
    expect(within(screen.getByRole('alert')).getByText('Sorry, you are not allowed to do that.')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('status')).getByRole('button', { name: 'Undo' }));
    expect(run).toHaveBeenCalledOnce();
    expect(useToasts.getState().toasts.map((t) => t.kind)).toEqual(['error']);
  });
});

describe('ManageScreen', () => {
  it('lists venues, searches through the API, creates with coordinates and trashes with Undo', async () => {
    const hall = makeVenue(7, 'Town Hall', { address: '1 Main St', city: 'Springfield', geo_lat: 39.8, geo_lng: -89.6 });
    const mill = makeVenue(8, 'Old Mill', { city: 'Shelbyville' });
    const api = mockApi({
      'GET venues': (c) => (c.url.searchParams.get('search') === 'mill' ? listOf('venues', [mill]) : listOf('venues', [hall, mill])),
      'POST venues': (c) => ({ status: 201, body: makeVenue(9, (c.body as { venue: string }).venue) }),
      'DELETE venues/7': { body: { ...hall, status: 'trash' } },
      'POST venues/7': { body: hall },
      'GET events': { body: { events: [], total: 0, total_pages: 0 } },
    });
    render(<ManageScreen kind="venues" />);
    const table = await screen.findByRole('table', { name: 'Venues' });
    expect(within(table).getByRole('button', { name: 'Town Hall' })).toBeTruthy();
    expect(within(table).getByText('39.80000, -89.60000')).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search venues' }), { target: { value: 'mill' } });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Town Hall' })).toBeNull());
    expect(api.calls.some((c) => c.url.searchParams.get('search') === 'mill')).toBe(true);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search venues' }), { target: { value: '' } });
    await screen.findByRole('button', { name: 'Town Hall' });

    fireEvent.click(screen.getByRole('button', { name: 'New venue' }));
    const dialog = screen.getByRole('dialog', { name: 'New venue' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Venue name' }), { target: { value: 'Riverside' } });
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Latitude' }), { target: { value: '38.5' } });
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Longitude' }), { target: { value: '-90.25' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('POST', 'venues')).toHaveLength(1));
    expect(api.to('POST', 'venues')[0].body).toMatchObject({ venue: 'Riverside', geo_lat: 38.5, geo_lng: -90.25, status: 'publish' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Delete Town Hall' }));
    await waitFor(() => expect(api.to('DELETE', 'venues/7')).toHaveLength(1));
    const toast = useToasts.getState().toasts.find((t) => t.action)!;
    expect(toast.message).toBe('Moved “Town Hall” to the trash');
    await act(async () => useUndo.getState().undo());
    expect(api.to('POST', 'venues/7')[0].body).toEqual({ status: 'publish' });
  });

  it('shows the answer to the newest search even when an older one arrives last', async () => {
    const hall = makeVenue(7, 'Town Hall');
    const mill = makeVenue(8, 'Old Mill');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    mockApi({
      'GET venues': async (c) => {
        if (c.url.searchParams.get('search') !== 'mill') return listOf('venues', [hall, mill]);
        await gate;
        return listOf('venues', [mill]);
      },
    });
    render(<ManageScreen kind="venues" />);
    await screen.findByRole('button', { name: 'Town Hall' });
    const search = screen.getByRole('searchbox', { name: 'Search venues' });
    fireEvent.change(search, { target: { value: 'mill' } });
    const busy = () => document.querySelector('.table-wrap')?.getAttribute('aria-busy');
    await waitFor(() => expect(busy()).toBe('true')); // the 'mill' search is under way
    fireEvent.change(search, { target: { value: '' } });
    await waitFor(() => expect(busy()).toBe('false')); // and the '' one answered
    await act(async () => {
      release();
      await gate;
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(screen.getByRole('button', { name: 'Town Hall' })).toBeTruthy();
    expect(screen.getByRole('searchbox', { name: 'Search venues' })).toHaveProperty('value', '');
  });

  it('shows the list as it is when the venue was already trashed elsewhere', async () => {
    const hall = makeVenue(7, 'Town Hall');
    const mill = makeVenue(8, 'Old Mill');
    let trashedElsewhere = false;
    mockApi({
      'GET venues': () => listOf('venues', trashedElsewhere ? [hall] : [hall, mill]),
      'DELETE venues/8': { status: 410, body: { code: 'venue-is-in-trash', message: 'The venue with ID 8 is already in the trash.', data: { status: 410 } } },
      'GET events': { body: { events: [], total: 0, total_pages: 0 } },
    });
    render(<ManageScreen kind="venues" />);
    await screen.findByRole('button', { name: 'Old Mill' });
    trashedElsewhere = true; // a script trashed it through the API meanwhile
    fireEvent.click(screen.getByRole('button', { name: 'Delete Old Mill' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Old Mill' })).toBeNull());
    expect(useToasts.getState().toasts.map((t) => [t.kind, t.message])).toEqual([['error', 'The venue with ID 8 is already in the trash.']]);
    expect(screen.getByRole('button', { name: 'Town Hall' })).toBeTruthy();
  });

  it('sends one DELETE however often Delete is pressed, and drops the row at once', async () => {
    const hall = makeVenue(7, 'Town Hall');
    const mill = makeVenue(8, 'Old Mill');
    let answer!: () => void;
    const held = new Promise<void>((r) => (answer = r));
    let trashed = 0;
    const api = mockApi({
      'GET venues': () => listOf('venues', trashed ? [hall] : [hall, mill]),
      'DELETE venues/8': async () => {
        await held;
        // As the server does: the second DELETE of a trashed venue is refused.
        if (trashed++) return { status: 410, body: { code: 'venue-is-in-trash', message: 'The venue with ID 8 is already in the trash.', data: { status: 410 } } };
        return { body: { ...mill, status: 'trash' } };
      },
      'GET events': { body: { events: [], total: 0, total_pages: 0 } },
    });
    render(<ManageScreen kind="venues" />);
    const button = await screen.findByRole('button', { name: 'Delete Old Mill' });
    fireEvent.click(button);
    fireEvent.click(button);
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(true));
    fireEvent.click(button);
    await act(async () => {
      answer();
      await held;
    });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Old Mill' })).toBeNull());
    expect(api.to('DELETE', 'venues/8')).toHaveLength(1);
    expect(useToasts.getState().toasts.filter((t) => t.kind === 'error')).toEqual([]);
  });

  it('keeps the same row buttons while a new search loads, so a click during the reload is not lost', async () => {
    const hall = makeVenue(7, 'Town Hall');
    const mill = makeVenue(8, 'Old Mill');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    mockApi({
      'GET venues': async (c) => {
        if (!c.url.searchParams.get('search')) return listOf('venues', [hall, mill]);
        await gate;
        return listOf('venues', [hall, mill]);
      },
    });
    render(<ManageScreen kind="venues" />);
    const before = await screen.findByRole('button', { name: 'Delete Old Mill' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search venues' }), { target: { value: 'l' } });
    await waitFor(() => expect(document.querySelector('.table-wrap')?.getAttribute('aria-busy')).toBe('true'));
    expect(screen.getByRole('button', { name: 'Delete Old Mill' })).toBe(before);
    await act(async () => {
      release();
      await gate;
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(screen.getByRole('button', { name: 'Delete Old Mill' })).toBe(before);
  });

  it('counts the events of a category with a repeating event once (issue 27 §5.17)', async () => {
    const classes = makeTerm(1, 'Classes', { count: 216, series_count: 3 });
    useLookups.setState({ categories: [classes] });
    mockApi({ 'GET categories': listOf('categories', [classes]), 'GET events': { body: { events: [], total: 0, total_pages: 0 } } });
    render(<ManageScreen kind="categories" />);
    const row = (await screen.findByRole('button', { name: 'Classes' })).closest('tr')!;
    const cells = Array.from(row.querySelectorAll('td')).map((c) => c.textContent);
    expect(cells).toContain('3');
    expect(cells).not.toContain('216');
  });

  it('deletes a category for good only after asking, and picks parents by name', async () => {
    const work = makeTerm(1, 'Work');
    const meetings = makeTerm(2, 'Meetings', { parent: 1 });
    useLookups.setState({ categories: [work, meetings] });
    const api = mockApi({
      'GET categories': listOf('categories', [work, meetings]),
      'DELETE categories/2': { body: meetings },
      'PATCH categories/2': { body: { ...meetings, parent: 0 } },
      'GET events': { body: { events: [], total: 0, total_pages: 0 } },
    });
    render(<ManageScreen kind="categories" />);
    await screen.findByRole('button', { name: 'Meetings' });
    expect(api.calls[0].url.searchParams.get('hide_empty')).toBe('false');
    expect(screen.getByRole('row', { name: /Meetings/ }).textContent).toContain('Work');

    fireEvent.click(screen.getByRole('button', { name: 'Edit Meetings' }));
    const parent = within(screen.getByRole('dialog', { name: 'Edit category' })).getByRole('combobox', { name: 'Parent category' }) as HTMLSelectElement;
    expect(parent.value).toBe('1');
    expect([...parent.options].map((o) => o.textContent)).toEqual(['None (top level)', 'Work']);
    fireEvent.change(parent, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('PATCH', 'categories/2')).toHaveLength(1));
    expect(api.to('PATCH', 'categories/2')[0].body).toEqual({ parent: 0 });

    fireEvent.click(await screen.findByRole('button', { name: 'Delete Meetings' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete for good?' });
    expect(api.to('DELETE', 'categories/2')).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(api.to('DELETE', 'categories/2')).toHaveLength(1));
  });
});

describe('TrashScreen', () => {
  it('empties the trash in one click, after a confirmation that Cancel leaves untouched (issue 27)', async () => {
    const trashed = [makeEvent({ id: 3, title: 'Dentist', status: 'trash' }), makeEvent({ id: 4, title: 'Old party', status: 'trash' })];
    let inTrash = trashed;
    const api = mockApi({
      'GET events': (c) => (c.url.searchParams.get('status') === 'trash' ? listOf('events', inTrash) : listOf('events', [])),
      'DELETE trash': () => {
        inTrash = [];
        return { body: { kind: 'events', deleted: 2 } };
      },
    });
    render(<TrashScreen />);
    fireEvent.click(await screen.findByRole('button', { name: 'Empty trash' }));
    const ask = screen.getByRole('dialog', { name: 'Empty the trash?' });
    expect(ask.textContent).toContain('The 2 events in the trash will be deleted for good.');
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(api.to('DELETE', 'trash')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Empty trash' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Empty the trash?' })).getByRole('button', { name: 'Empty trash' }));
    await screen.findByText('The trash is empty.', { exact: false });
    expect(api.to('DELETE', 'trash').map((c) => c.url.searchParams.get('kind'))).toEqual(['events']);
    expect(useToasts.getState().toasts.map((x) => x.message)).toContain('Deleted 2 items for good');
  });

  it('restores a trashed event and deletes another for good', async () => {
    const a = makeEvent({ id: 3, title: 'Dentist', status: 'trash' });
    const b = makeEvent({ id: 4, title: 'Old party', status: 'trash' });
    const api = mockApi({
      'GET events': (c) => (c.url.searchParams.get('status') === 'trash' ? listOf('events', [a, b]) : listOf('events', [])),
      'POST events/3': { body: { ...a, status: 'publish' } },
      'DELETE events/4': { body: { deleted: true } },
    });
    render(<TrashScreen />);
    fireEvent.click(await screen.findByRole('button', { name: 'Restore Dentist' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Restore Dentist' })).toBeNull());
    expect(api.to('POST', 'events/3')[0].body).toEqual({ status: 'publish' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Old party for good' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Delete for good?' })).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(api.to('DELETE', 'events/4')).toHaveLength(1));
    expect(api.to('DELETE', 'events/4')[0].url.searchParams.get('force')).toBe('true');
    await screen.findByText('The trash is empty.');
  });
});

describe('DayList', () => {
  it('lists every event of a crowded day and opens one’s details', () => {
    const events = Array.from({ length: 6 }, (_, i) => makeEvent({ id: i + 1, title: `Talk ${i + 1}`, utc_start_date: `2031-03-12 12:0${i}:00`, utc_end_date: `2031-03-12 12:3${i}:00` }));
    useEvents.setState({ events });
    useUi.setState({ dayList: '2031-03-12' });
    render(<DayList day="2031-03-12" />);
    const dialog = screen.getByRole('dialog', { name: /March 12, 2031/ });
    expect(within(dialog).getAllByRole('button', { name: /Talk/ })).toHaveLength(6);
    fireEvent.click(within(dialog).getByRole('button', { name: /Talk 4/ }));
    expect(useUi.getState().details).toMatchObject({ id: 4 });
  });
});

describe('keyboard shortcuts', () => {
  const key = (k: string, extra: KeyboardEventInit = {}, target: EventTarget = document.body) => {
    const e = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...extra });
    Object.defineProperty(e, 'target', { value: target });
    return handleShortcut(e);
  };

  it('switch views, go to today, open a new event and focus search', () => {
    useCalendar.setState({ view: 'month', date: '2031-03-12' });
    expect(key('w')).toBe(true);
    expect(useCalendar.getState().view).toBe('week');
    key('a');
    expect(useCalendar.getState().view).toBe('agenda');
    key('d');
    key('m');
    expect(useCalendar.getState().view).toBe('month');
    key('t');
    expect(useCalendar.getState().date).toBe(new Date().toLocaleDateString('sv'));
    const before = useUi.getState().searchFocusRequest;
    key('/');
    expect(useUi.getState().searchFocusRequest).toBe(before + 1);
    key('c');
    expect(useUi.getState().editor?.kind).toBe('create');
  });

  it('j/n and k/p move to the next and previous period, as in Google Calendar (issue 27)', () => {
    useUi.setState({ editor: null });
    useCalendar.setState({ view: 'month', date: '2031-03-12' });
    expect(key('j')).toBe(true);
    expect(useCalendar.getState().date).toBe('2031-04-12');
    key('n');
    expect(useCalendar.getState().date).toBe('2031-05-12');
    key('k');
    key('p');
    expect(useCalendar.getState().date).toBe('2031-03-12');
    useCalendar.setState({ view: 'week' });
    key('J');
    expect(useCalendar.getState().date).toBe('2031-03-19');
    // Typed into a field, the letters are the field's.
    const input = document.createElement('input');
    expect(key('j', {}, input)).toBe(false);
    expect(useCalendar.getState().date).toBe('2031-03-19');
    // Listed in "?".
    render(<ShortcutsDialog />);
    const rows = screen.getAllByRole('row').map((r) => r.textContent);
    expect(rows).toContain('J or NNext month, week or day');
    expect(rows).toContain('K or PPrevious month, week or day');
    expect(rows).toContain('CNew event');
  });

  it('leave keys alone while typing or while a dialog is open', () => {
    useCalendar.setState({ view: 'month' });
    const input = document.createElement('input');
    expect(key('w', {}, input)).toBe(false);
    useUi.setState({ editor: { kind: 'create', draft: { start_date: '', end_date: '', all_day: false, timezone: 'UTC' } } });
    expect(key('w')).toBe(false);
    expect(useCalendar.getState().view).toBe('month');
  });

  it('Delete trashes the selected event and Ctrl+Z brings it back', async () => {
    const e = makeEvent({ id: 77, title: 'Gym' });
    useEvents.setState({ events: [e], query: null });
    useUi.setState({ selectedEventId: 77 });
    const api = mockApi({ 'DELETE events/77': { body: { ...e, status: 'trash' } }, 'POST events/77': { body: e }, 'GET events': listOf('events', [e]) });
    expect(key('Delete')).toBe(true);
    await waitFor(() => expect(useEvents.getState().events).toEqual([]));
    expect(key('z', { ctrlKey: true })).toBe(true);
    await waitFor(() => expect(api.to('POST', 'events/77')).toHaveLength(1));
    await waitFor(() => expect(useEvents.getState().events.map((x) => x.id)).toEqual([77]));
  });
});

describe('desktop menu commands (Electron bridge)', () => {
  it('switch views, open the import dialog, and export with the records language and the filters on screen', async () => {
    const importFile = vi.fn().mockResolvedValue({
      status: 'imported',
      file: '/home/me/cal.ics',
      report: { dry_run: false, created: 3, updated: 1, reused: 0, skipped: 2, items: [], errors: [], warnings: [] },
    });
    const exportFile = vi.fn().mockResolvedValue({ status: 'saved', file: '/home/me/almanac.ics', bytes: 120 });
    window.almanac = { apiBase: 'http://127.0.0.1:4780/cal/events/v1/', token: 't', version: '1', importFile, exportFile, openDataFolder: vi.fn(), onCommand: () => () => {}, authorizeSite: vi.fn() };
    mockApi({ 'GET events': listOf('events', []), 'GET categories': listOf('categories', []), 'GET tags': listOf('tags', []), 'GET venues': listOf('venues', []), 'GET organizers': listOf('organizers', []) });
    try {
      useSettings.setState({ contentLanguage: 'es' });
      useFilters.getState().toggle('categories', 3);
      useFilters.getState().setSearch('jazz');
      useUi.setState({ screen: 'venues' });
      await runCommand({ name: 'show-view', view: 'agenda' });
      expect(useUi.getState().screen).toBe('calendar');
      expect(useCalendar.getState().view).toBe('agenda');

      // Help > Keyboard Shortcuts opens the page's list.
      await runCommand({ name: 'show-shortcuts' });
      expect(useUi.getState().shortcuts).toBe(true);

      // Imports open the import dialog (progress, problems, stop) ready for that kind of file.
      await runCommand({ name: 'import', format: 'csv', kind: 'venues' });
      expect(useUi.getState().importDialog).toEqual({ format: 'csv', kind: 'venues' });
      expect(importFile).not.toHaveBeenCalled();

      await runCommand({ name: 'export', format: 'ics' });
      expect(exportFile).toHaveBeenCalledWith('ics', { language: 'es', filters: { categories: [3], search: 'jazz' } });
      expect(useToasts.getState().toasts.at(-1)?.message).toBe('Saved to /home/me/almanac.ics');

      exportFile.mockResolvedValueOnce({ status: 'failed', message: 'Disk full' });
      await runCommand({ name: 'export', format: 'json' });
      expect(exportFile).toHaveBeenLastCalledWith('json', { language: 'es', filters: {} });
      expect(useToasts.getState().toasts.at(-1)).toMatchObject({ kind: 'error', message: 'Disk full' });

      // Every calendar hidden: an iCalendar export has nothing to show, but a backup is still the whole calendar.
      useFilters.setState({ calendars: [] });
      exportFile.mockClear();
      await runCommand({ name: 'export', format: 'ics' });
      expect(exportFile).not.toHaveBeenCalled();
      expect(useToasts.getState().toasts.at(-1)?.message).toMatch(/nothing to export/i);
      await runCommand({ name: 'export', format: 'json' });
      expect(exportFile).toHaveBeenCalledWith('json', { language: 'es', filters: {} });
    } finally {
      useFilters.setState({ calendars: null });
      delete window.almanac;
    }
  });
});

describe('ExportDialog in the desktop app', () => {
  it('asks the bridge to save what the filters show, in the records language, and says where it went', async () => {
    const exportFile = vi.fn(async () => ({ status: 'saved' as const, file: '/home/ana/almanac.ics', bytes: 10 }));
    window.almanac = { exportFile } as unknown as NonNullable<typeof window.almanac>;
    try {
      useSettings.setState({ contentLanguage: 'pt-br' });
      useFilters.setState({ categories: [3], search: 'jazz' });
      useUi.setState({ exportDialog: true });
      render(<ExportDialog />);
      const dialog = screen.getByRole('dialog', { name: 'Export' });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save…' }));
      await waitFor(() => expect(exportFile).toHaveBeenCalledWith('ics', { language: 'pt-br', filters: { categories: [3], search: 'jazz' } }));
      await waitFor(() => expect(useUi.getState().exportDialog).toBe(false));
      expect(useToasts.getState().toasts.map((t) => t.message)).toEqual(['Saved to /home/ana/almanac.ics']);
    } finally {
      delete window.almanac;
    }
  });
});
