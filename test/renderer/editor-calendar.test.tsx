// @vitest-environment happy-dom
/**
 * The event editor's Calendar field (issue 17): it lists the calendars an event can go to, a move
 * sends only `calendar`, and an event of a read-only calendar opens read-only (nothing to save).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import '../../renderer/src/i18n';
import i18n from '../../renderer/src/i18n';
import type { CalendarJson } from '@shared/schema/accounts';
import { EventEditor } from '../../renderer/src/editor/EventEditor';
import { useCalendars } from '../../renderer/src/state/calendars';
import { useSettings } from '../../renderer/src/state/settings';
import { useUi } from '../../renderer/src/state/ui';
import { useEvents } from '../../renderer/src/state/events';
import { makeEvent, mockApi } from './helpers';

const cal = (id: number, name: string, over: Partial<CalendarJson> = {}): CalendarJson => ({ id, name, color: null, visible: true, account: id === 1 ? null : 'Home', account_id: id === 1 ? null : 1, synced: id !== 1, read_only: false, subscription: null, ...over });

beforeEach(async () => {
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
  useEvents.setState({ events: [], query: null });
  useCalendars.setState({
    calendars: [cal(1, 'On this computer'), cal(2, 'Work'), cal(3, 'Family'), cal(4, 'Holidays', { read_only: true }), cal(5, 'Archive', { synced: false })],
  });
});
afterEach(cleanup);

function open(calendar: number) {
  const e = makeEvent({ id: 8, title: 'Standup', calendar });
  useUi.setState({ editor: { kind: 'edit', event: e } });
  render(<EventEditor target={{ kind: 'edit', event: e }} />);
}

describe('the editor’s Calendar field', () => {
  it('lists the writable calendars and moves the event with `calendar` alone', async () => {
    const api = mockApi({ 'PATCH events/8': { body: makeEvent({ id: 8, title: 'Standup', calendar: 3 }) } });
    open(2);
    const field = screen.getByRole('combobox', { name: 'Calendar' }) as HTMLSelectElement;
    expect(within(field).getAllByRole('option').map((o) => o.textContent)).toEqual(['On this computer', 'Work (Home)', 'Family (Home)']);
    expect(field.value).toBe('2');
    fireEvent.change(field, { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('PATCH', 'events/8')).toHaveLength(1));
    expect(api.to('PATCH', 'events/8')[0].body).toEqual({ calendar: 3 });
  });

  it('opens an event of a read-only calendar read-only', async () => {
    const api = mockApi({ 'PATCH events/8': { body: makeEvent({ id: 8, title: 'Changed', calendar: 4 }) } });
    open(4);
    expect(screen.getByRole('status').textContent).toContain('“Holidays”, a read-only calendar');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    const title = screen.getByRole('textbox', { name: 'Title' }) as HTMLInputElement;
    // Every control sits in a disabled fieldset (happy-dom does not carry that into :disabled; browsers do).
    expect(title.closest('fieldset')?.disabled).toBe(true);
    expect(screen.getByRole('combobox', { name: 'Calendar' }).closest('fieldset')?.disabled).toBe(true);
    // Even a change that gets through (happy-dom lets it) is not saved: nothing is sent.
    fireEvent.change(title, { target: { value: 'Changed' } });
    expect(title.value).toBe('Changed');
    fireEvent.keyDown(title, { key: 'Enter', ctrlKey: true });
    await new Promise((r) => setTimeout(r, 50));
    expect(api.calls).toHaveLength(0);
  });

  it('puts a new event in a shown calendar while this computer’s is hidden, so it stays on screen', async () => {
    useCalendars.setState({ calendars: [cal(1, 'On this computer', { visible: false }), cal(4, 'Holidays', { read_only: true }), cal(5, 'Archive', { synced: false }), cal(3, 'Family')] });
    const api = mockApi({ 'POST events': { status: 201, body: makeEvent({ id: 9, title: 'Dentist', calendar: 3 }) } });
    const draft = { title: 'Dentist', start_date: '2031-03-12 14:00:00', end_date: '2031-03-12 15:00:00', all_day: false, timezone: 'UTC' };
    useUi.setState({ editor: { kind: 'create', draft } });
    render(<EventEditor target={{ kind: 'create', draft }} />);
    expect((screen.getByRole('combobox', { name: 'Calendar' }) as HTMLSelectElement).value).toBe('3');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('POST', 'events')).toHaveLength(1));
    expect(api.to('POST', 'events')[0].body).toMatchObject({ title: 'Dentist', calendar: 3 });
  });

  it('puts the copy of a read-only calendar’s event (Duplicate) where new events go, so it can be saved', async () => {
    const api = mockApi({ 'POST events': { status: 201, body: makeEvent({ id: 10, title: 'Carnival', calendar: 1 }) } });
    const from = makeEvent({ id: 7, title: 'Carnival', calendar: 4 });
    const draft = { title: 'Carnival', start_date: '2031-03-03 00:00:00', end_date: '2031-03-03 23:59:59', all_day: true, timezone: 'UTC' };
    useUi.setState({ editor: { kind: 'create', draft, from } });
    render(<EventEditor target={{ kind: 'create', draft, from }} />);
    const field = screen.getByRole('combobox', { name: 'Calendar' }) as HTMLSelectElement;
    expect(field.value).toBe('1');
    expect(within(field).getAllByRole('option').map((o) => o.textContent)).not.toContain('Holidays');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('POST', 'events')).toHaveLength(1));
    expect(api.to('POST', 'events')[0].body).not.toHaveProperty('calendar');
  });
});
