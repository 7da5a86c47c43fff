// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import '../../renderer/src/i18n';
import i18n from '../../renderer/src/i18n';
import { EventEditor } from '../../renderer/src/editor/EventEditor';
import { QuickCreate } from '../../renderer/src/calendar/QuickCreate';
import { useLookups } from '../../renderer/src/state/lookups';
import { useSettings } from '../../renderer/src/state/settings';
import { useUi } from '../../renderer/src/state/ui';
import { useEvents } from '../../renderer/src/state/events';
import { useUndo } from '../../renderer/src/state/undo';
import { embedded, makeEvent, makeOrganizer, makeTerm, makeVenue, mockApi } from './helpers';

const music = makeTerm(31, 'Music');
const work = makeTerm(32, 'Work');

beforeEach(async () => {
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
  useLookups.setState({ categories: [music, work], tags: [makeTerm(40, 'outdoor')], venues: [makeVenue(7, 'Town Hall', { city: 'Springfield' })], organizers: [makeOrganizer(9, 'Arts Council')], loaded: true });
  useEvents.setState({ events: [], query: null });
  useUndo.getState().clear();
});
afterEach(cleanup);

const draft = { start_date: '2031-03-12 10:00:00', end_date: '2031-03-12 11:00:00', all_day: false, timezone: 'UTC' };
const noEvents = { body: { events: [], total: 0, total_pages: 0 } };

describe('EventEditor', () => {
  it('is a labelled dialog whose fields are named as the schema labels them', () => {
    useUi.setState({ editor: { kind: 'create', draft } });
    render(<EventEditor target={{ kind: 'create', draft }} />);
    const dialog = screen.getByRole('dialog', { name: 'New event' });
    for (const name of ['Title', 'Description', 'Excerpt', 'Cost', 'Website', 'Image URL']) expect(within(dialog).getByRole('textbox', { name })).toBeTruthy();
    expect((within(dialog).getByLabelText('Start') as HTMLInputElement).value).toBe('03/12/2031');
    expect((within(dialog).getByLabelText('Start time') as HTMLInputElement).value).toBe('10:00\u00a0AM');
    expect((within(dialog).getByLabelText('End') as HTMLInputElement).value).toBe('03/12/2031');
    expect((within(dialog).getByLabelText('End time') as HTMLInputElement).value).toBe('11:00\u00a0AM');
    for (const name of ['All day', 'Featured', 'Sticky', 'Hide from listings', 'Show map', 'Show map link']) expect(within(dialog).getByRole('checkbox', { name })).toBeTruthy();
    expect(within(dialog).getByRole('combobox', { name: 'Venue' })).toBeTruthy();
    expect(within(dialog).getByRole('combobox', { name: 'Organizers' })).toBeTruthy();
    expect(within(dialog).getByRole('combobox', { name: 'Categories' })).toBeTruthy();
    expect(within(dialog).getByRole('combobox', { name: 'Status' })).toBeTruthy();
    expect(within(dialog).getByRole('combobox', { name: 'Time zone' })).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole('textbox', { name: 'Title' }));
  });

  it('keeps the website words (Slug, Excerpt, Sticky, Hide from listings, Status) in a collapsed "On the website" section (issue 27 §5.17)', () => {
    localStorage.removeItem('almanac.editor.publishing');
    useUi.setState({ editor: { kind: 'create', draft } });
    render(<EventEditor target={{ kind: 'create', draft }} />);
    const dialog = screen.getByRole('dialog', { name: 'New event' });
    const section = within(dialog).getByText('On the website', { exact: true }).closest('details')!;
    expect(section.open).toBe(false);
    for (const name of ['Slug', 'Excerpt']) expect(section.contains(within(dialog).getByRole('textbox', { name }))).toBe(true);
    for (const name of ['Sticky', 'Hide from listings']) expect(section.contains(within(dialog).getByRole('checkbox', { name }))).toBe(true);
    expect(section.contains(within(dialog).getByRole('combobox', { name: 'Status' }))).toBe(true);
  });

  it('creates an event with categories typed in (existing and new), a new venue and flags', async () => {
    const created = makeEvent({ id: 50, title: 'Jazz night' });
    const api = mockApi({ 'POST events': { status: 201, body: created }, 'GET events': noEvents, 'GET categories': { body: { categories: [music, work], total: 2, total_pages: 1 } }, 'GET venues': { body: { venues: [], total: 0, total_pages: 0 } } });
    useUi.setState({ editor: { kind: 'create', draft } });
    render(<EventEditor target={{ kind: 'create', draft }} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Jazz night' } });
    const categories = screen.getByRole('combobox', { name: 'Categories' });
    fireEvent.focus(categories);
    fireEvent.change(categories, { target: { value: 'mus' } });
    fireEvent.click(screen.getByRole('option', { name: 'Music' }));
    fireEvent.change(categories, { target: { value: 'Late shows' } });
    expect(screen.getByRole('option', { name: 'Create “Late shows”' })).toBeTruthy();
    fireEvent.keyDown(categories, { key: 'Enter' });
    const chips = within(screen.getByRole('list', { name: 'Selected Categories' }));
    expect(chips.getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['Remove Music', 'Remove Late shows']);
    fireEvent.change(screen.getByRole('combobox', { name: 'Venue' }), { target: { value: '__new__' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Venue name' }), { target: { value: 'Blue Note' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'City' }), { target: { value: 'Lisbon' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Featured' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('POST', 'events')).toHaveLength(1));
    expect(api.to('POST', 'events')[0].body).toEqual({
      title: 'Jazz night',
      start_date: '2031-03-12 10:00:00',
      end_date: '2031-03-12 11:00:00',
      timezone: 'UTC',
      status: 'publish',
      featured: true,
      categories: [31, 'Late shows'],
      venue: { venue: 'Blue Note', city: 'Lisbon' },
      // None shown, none saved: the settings' defaults would otherwise add ones the editor never showed.
      reminders: [],
    });
    await waitFor(() => expect(useUi.getState().editor).toBeNull());
  });

  it('marks a 2,000-character new venue name on the name field with the limit, and sends nothing (issue 27 §5.6)', async () => {
    const api = mockApi({});
    useUi.setState({ editor: { kind: 'create', draft } });
    render(<EventEditor target={{ kind: 'create', draft }} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Gig' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Venue' }), { target: { value: '__new__' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Venue name' }), { target: { value: 'V'.repeat(2000) } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('alert');
    const name = screen.getByRole('textbox', { name: 'Venue name' });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name.getAttribute('aria-describedby')!)!.textContent).toBe('Is too long: at most 1000 characters.');
    expect(screen.getByRole('combobox', { name: 'Venue' }).getAttribute('aria-invalid')).toBeNull();
    expect(api.to('POST', 'events')).toHaveLength(0);
  });

  it('puts the server’s word on a new venue’s own field, not on the Venue select', async () => {
    mockApi({
      'POST events': {
        status: 400,
        body: {
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): venue',
          data: {
            status: 400,
            params: { venue: 'Is not a venue, or the venue data is not valid.' },
            details: { venue: { code: 'could-not-create-venue', message: 'The venue could not be created: city', data: { status: 400, params: { city: 'Is too long: at most 1000 characters.' } } } },
          },
        },
      },
    });
    useUi.setState({ editor: { kind: 'create', draft } });
    render(<EventEditor target={{ kind: 'create', draft }} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Gig' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Venue' }), { target: { value: '__new__' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Venue name' }), { target: { value: 'Luso' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Venue › City: Is too long: at most 1000 characters.');
    expect(screen.getByRole('textbox', { name: 'City' }).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('combobox', { name: 'Venue' }).getAttribute('aria-invalid')).toBeNull();
  });

  it('keeps everything typed and shows the server’s message when the save is refused', async () => {
    const e = makeEvent({ id: 5, title: 'Concert', categories: [embedded(music)] });
    const api = mockApi({
      'PATCH events/5': { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): website', data: { status: 400, params: { website: 'Must be an absolute http or https URL.' } } } },
    });
    useUi.setState({ editor: { kind: 'edit', event: e } });
    render(<EventEditor target={{ kind: 'edit', event: e }} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Concert (moved)' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Website' }), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Website: Must be an absolute http or https URL.');
    // Only the changed fields were sent.
    expect(api.to('PATCH', 'events/5')[0].body).toEqual({ title: 'Concert (moved)', website: 'nope' });
    const website = screen.getByRole('textbox', { name: 'Website' });
    expect(website.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Must be an absolute http or https URL.')).toBeTruthy();
    expect((website as HTMLInputElement).value).toBe('nope');
    expect((screen.getByRole('textbox', { name: 'Title' }) as HTMLInputElement).value).toBe('Concert (moved)');
    expect(useUi.getState().editor).not.toBeNull();
  });

  it('asks before throwing away changes', () => {
    const e = makeEvent({ id: 6, title: 'Talk' });
    useUi.setState({ editor: { kind: 'edit', event: e } });
    render(<EventEditor target={{ kind: 'edit', event: e }} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Talk 2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('group', { name: 'Discard your changes?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect((screen.getByRole('textbox', { name: 'Title' }) as HTMLInputElement).value).toBe('Talk 2');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(useUi.getState().editor).toBeNull();
  });

  it('hides the times of an all-day event and refuses an end before the start locally', async () => {
    const api = mockApi({});
    useUi.setState({ editor: { kind: 'create', draft } });
    render(<EventEditor target={{ kind: 'create', draft }} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Trip' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'All day' }));
    expect(screen.queryByRole('textbox', { name: 'Start time' })).toBeNull();
    fireEvent.change(screen.getByLabelText('End'), { target: { value: '2031-03-10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Some fields need attention.');
    expect(screen.getByText('The end is before the start.')).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });
});

describe('QuickCreate', () => {
  it('creates from a title alone and closes', async () => {
    const api = mockApi({ 'POST events': { status: 201, body: makeEvent({ id: 70, title: 'Lunch' }) }, 'GET events': noEvents });
    useUi.setState({ quickCreate: draft });
    render(<QuickCreate draft={draft} />);
    const dialog = screen.getByRole('dialog', { name: 'New event' });
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    expect(document.activeElement).toBe(title);
    fireEvent.change(title, { target: { value: 'Lunch' } });
    fireEvent.submit(title.closest('form')!);
    await waitFor(() => expect(useUi.getState().quickCreate).toBeNull());
    expect(api.to('POST', 'events')[0].body).toEqual({ title: 'Lunch', ...draft, status: 'publish', reminders: [] });
  });

  it('stays open with the server’s message when creation fails', async () => {
    mockApi({ 'POST events': { status: 400, body: { code: 'rest_invalid_param', message: 'Parámetro(s) no válido(s): start_date', data: { status: 400 } } } });
    useUi.setState({ quickCreate: draft });
    render(<QuickCreate draft={draft} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Lunch' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Parámetro(s) no válido(s): start_date');
    expect(useUi.getState().quickCreate).not.toBeNull();
  });

  it('"More options" carries the title into the full editor', () => {
    useUi.setState({ quickCreate: draft });
    render(<QuickCreate draft={draft} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Gym' } });
    fireEvent.click(screen.getByRole('button', { name: 'More options' }));
    expect(useUi.getState().editor).toEqual({ kind: 'create', draft: { ...draft, title: 'Gym', reminders: [] } });
    expect(useUi.getState().quickCreate).toBeNull();
  });
});
