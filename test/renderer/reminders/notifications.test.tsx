// @vitest-environment happy-dom
/**
 * The Notifications section in the editor and quick create (issue 16): what the API holds comes
 * back unchanged unless the user changed it, a new event always says its reminders, an occurrence
 * asks which occurrences, and the bell marks events that have reminders.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Event } from '@shared/api/records';
import i18n from '../../../renderer/src/i18n';
import { QuickCreate } from '../../../renderer/src/calendar/QuickCreate';
import { EventDetails } from '../../../renderer/src/calendar/EventDetails';
import { Badges } from '../../../renderer/src/calendar/MonthGrid';
import { useLookups } from '../../../renderer/src/state/lookups';
import { useSettings } from '../../../renderer/src/state/settings';
import { useUi } from '../../../renderer/src/state/ui';
import { useEvents } from '../../../renderer/src/state/events';
import { useUndo } from '../../../renderer/src/state/undo';
import { makeEvent, mockApi } from '../helpers';
import { openEditor as openEditorOn } from '../open-editor';

const draft = { start_date: '2031-03-12 10:00:00', end_date: '2031-03-12 11:00:00', all_day: false, timezone: 'UTC' };
const noEvents = { body: { events: [], total: 0, total_pages: 0 } };
const held = [
  { action: 'email' as const, trigger: '-PT15M', attendees: ['me@example.org'] },
  { action: 'display' as const, trigger: '-P1DT2H' },
  { action: 'display' as const, trigger: '-PT10M' },
];

beforeEach(async () => {
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
  useLookups.setState({ categories: [], tags: [], venues: [], organizers: [], loaded: true });
  useEvents.setState({ events: [], query: null });
  useUndo.getState().clear();
  useUi.setState({ editor: null, quickCreate: null, details: null });
});
afterEach(cleanup);

function openEditor(e: Event) {
  openEditorOn(e);
  return screen.getByRole('group', { name: 'Notifications' });
}

const selectText = (el: HTMLElement) => (el as HTMLSelectElement).selectedOptions[0].textContent;

describe('the Notifications section', () => {
  it('shows what the API holds, the ones it cannot edit in words, and saves none of it when only the title changed', async () => {
    const e = makeEvent({ id: 7, title: 'Dentist', reminders: held });
    const api = mockApi({ 'PATCH events/7': { body: { ...e, title: 'Dentist (moved)' } }, 'GET events': noEvents });
    const section = openEditor(e);
    expect(selectText(within(section).getByRole('combobox', { name: 'Notification 1' }))).toBe('Email: 15 minutes before');
    expect(selectText(within(section).getByRole('combobox', { name: 'Notification 2' }))).toBe('1 day 2 hours before');
    expect(selectText(within(section).getByRole('combobox', { name: 'Notification 3' }))).toBe('10 minutes before');
    expect(within(section).getAllByText('Set in another app; kept as it is. Pick another to replace it.')).toHaveLength(2);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Dentist (moved)' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('PATCH', 'events/7')).toHaveLength(1));
    expect(api.to('PATCH', 'events/7')[0].body).toEqual({ title: 'Dentist (moved)' });
  });

  it('adds a custom one and removes one, keeping the others exactly', async () => {
    const e = makeEvent({ id: 7, title: 'Dentist', reminders: held });
    const api = mockApi({ 'PATCH events/7': { body: e }, 'GET events': noEvents });
    const section = openEditor(e);
    fireEvent.click(within(section).getByRole('button', { name: 'Remove notification 3' }));
    fireEvent.click(within(section).getByRole('button', { name: 'Add notification' }));
    const added = within(section).getByRole('combobox', { name: 'Notification 3' });
    expect(selectText(added)).toBe('10 minutes before');
    fireEvent.change(added, { target: { value: 'custom' } });
    const amount = within(section).getByRole('spinbutton', { name: 'Notification 3: how many' });
    expect((amount as HTMLInputElement).value).toBe('10');
    fireEvent.change(amount, { target: { value: '2' } });
    fireEvent.change(within(section).getByRole('combobox', { name: 'Notification 3: unit' }), { target: { value: 'hours' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('PATCH', 'events/7')).toHaveLength(1));
    expect(api.to('PATCH', 'events/7')[0].body).toEqual({ reminders: [held[0], held[1], { action: 'display', trigger: '-PT2H' }] });
  });

  it('Undo puts back the reminders an edit replaced, exactly', async () => {
    const e = makeEvent({ id: 7, title: 'Dentist', reminders: held });
    const api = mockApi({ 'PATCH events/7': { body: e }, 'GET events': noEvents });
    const section = openEditor(e);
    fireEvent.click(within(section).getByRole('button', { name: 'Remove notification 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('PATCH', 'events/7')).toHaveLength(1));
    expect(api.to('PATCH', 'events/7')[0].body).toEqual({ reminders: [held[1], held[2]] });
    await useUndo.getState().undo();
    expect(api.to('PATCH', 'events/7')[1].body).toEqual({ reminders: held });
  });

  it('does not save a half-typed amount or the same notification twice', async () => {
    const e = makeEvent({ id: 7, title: 'Dentist', reminders: [{ action: 'display', trigger: '-PT10M' }] });
    const api = mockApi({ 'PATCH events/7': { body: e }, 'GET events': noEvents });
    const section = openEditor(e);
    fireEvent.click(within(section).getByRole('button', { name: 'Add notification' }));
    fireEvent.change(within(section).getByRole('combobox', { name: 'Notification 2' }), { target: { value: 'custom' } });
    const amount = within(section).getByRole('spinbutton', { name: 'Notification 2: how many' });
    fireEvent.change(amount, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await within(section).findByText('Enter a whole number, up to a year before or after the start.');
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(amount, { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await within(section).findByText('This notification is already in the list.');
    expect(api.to('PATCH', 'events/7')).toHaveLength(0);
  });

  it('asks which occurrences before changing the reminders of an occurrence', async () => {
    const occurrence = makeEvent({
      id: 12,
      title: 'Yoga',
      recurrence: { rules: ['FREQ=WEEKLY'], rdates: [], exdates: [] },
      series_id: 10,
      recurrence_id: '2031-03-12 10:00:00',
      reminders: [{ action: 'display', trigger: '-PT10M' }],
    });
    const api = mockApi({ 'PATCH events/12': { body: occurrence }, 'GET events': noEvents });
    const section = openEditor(occurrence);
    fireEvent.change(within(section).getByRole('combobox', { name: 'Notification 1' }), { target: { value: 'start' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Edit repeating event' })).getByRole('button', { name: 'This event' }));
    await waitFor(() => expect(api.to('PATCH', 'events/12')).toHaveLength(1));
    const patch = api.to('PATCH', 'events/12')[0];
    expect(patch.url.searchParams.get('recurrence_scope')).toBe('this');
    expect(patch.body).toEqual({ reminders: [{ action: 'display', trigger: 'PT0S' }] });
  });

  it('creates from quick create with the reminders shown, none included', async () => {
    const api = mockApi({ 'POST events': { status: 201, body: makeEvent({ id: 50 }) }, 'GET events': noEvents });
    useUi.setState({ quickCreate: draft });
    render(<QuickCreate draft={draft} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Call' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('POST', 'events')).toHaveLength(1));
    expect(api.to('POST', 'events')[0].body).toMatchObject({ title: 'Call', reminders: [] });
    cleanup();

    useUi.setState({ quickCreate: { ...draft, all_day: true, start_date: '2031-03-12 00:00:00', end_date: '2031-03-12 23:59:59' } });
    render(<QuickCreate draft={{ ...draft, all_day: true, start_date: '2031-03-12 00:00:00', end_date: '2031-03-12 23:59:59' }} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Birthday' } });
    const section = screen.getByRole('group', { name: 'Notifications' });
    fireEvent.click(within(section).getByRole('button', { name: 'Add notification' }));
    expect(selectText(within(section).getByRole('combobox', { name: 'Notification 1' }))).toMatch(/^1 day before at 9:00\sAM$/);
    fireEvent.click(screen.getByRole('button', { name: 'More options' }));
    const editor = useUi.getState().editor;
    expect(editor?.kind === 'create' && editor.draft.reminders).toEqual([{ action: 'display', trigger: '-PT15H' }]);
  });

  it('marks events that have reminders with a named bell, and lists them on the details card', () => {
    const labels = { featured: 'Featured', sticky: 'Sticky', repeats: 'Repeats', reminds: 'Has notifications' };
    const e = makeEvent({ id: 3, title: 'Dentist', reminders: [{ action: 'display', trigger: '-PT10M' }] });
    render(
      <span data-testid="with">
        <Badges event={e} labels={labels} />
      </span>,
    );
    render(
      <span data-testid="without">
        <Badges event={makeEvent({ reminders: [] })} labels={labels} />
      </span>,
    );
    expect(screen.getByTestId('with').textContent).toContain('Has notifications');
    expect(screen.getByTestId('without').textContent).not.toContain('Has notifications');
    render(<EventDetails event={e} />);
    const card = screen.getByRole('dialog', { name: 'Dentist' });
    expect(within(card).getByText('10 minutes before')).toBeTruthy();
  });
});
