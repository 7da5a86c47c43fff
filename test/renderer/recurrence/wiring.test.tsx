// @vitest-environment happy-dom
/**
 * The Repeat control and the scope question where they are used: the editor, quick create, the
 * event actions behind drag, resize and delete, undo, and the repeat mark.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../../renderer/src/i18n';
import { EventEditor } from '../../../renderer/src/editor/EventEditor';
import { QuickCreate } from '../../../renderer/src/calendar/QuickCreate';
import { EventDetails } from '../../../renderer/src/calendar/EventDetails';
import { Badges } from '../../../renderer/src/calendar/MonthGrid';
import { ScopeDialogHost } from '../../../renderer/src/recurrence/ScopeDialog';
import { moveEvent, trashEvent, undoLast } from '../../../renderer/src/state/eventActions';
import { useLookups } from '../../../renderer/src/state/lookups';
import { useSettings } from '../../../renderer/src/state/settings';
import { useUi } from '../../../renderer/src/state/ui';
import { useEvents } from '../../../renderer/src/state/events';
import { useUndo } from '../../../renderer/src/state/undo';
import type { Event } from '@shared/api/records';
import { emptyFilters } from '../../../renderer/src/api/client';
import { makeEvent, mockApi, type Call } from '../helpers';
import { openEditor } from '../open-editor';

const RULE = 'FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10';
const series = { rules: [RULE], rdates: [], exdates: ['20310320T100000'] };
/** The third occurrence (Tuesday 18 March 2031) of a series that began on Tuesday 11 March. */
const occurrence = (over: Partial<Event> = {}) =>
  makeEvent({ id: 12, title: 'Yoga', start_date: '2031-03-18 10:00:00', end_date: '2031-03-18 11:00:00', recurrence: series, series_id: 10, recurrence_id: '2031-03-18 10:00:00', is_exception: false, ...over });

const draft = { start_date: '2031-03-11 10:00:00', end_date: '2031-03-11 11:00:00', all_day: false, timezone: 'UTC' };
const noEvents = { body: { events: [], total: 0, total_pages: 0 } };
const scopeOf = (c: Call) => c.url.searchParams.get('recurrence_scope');

beforeEach(async () => {
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
  useLookups.setState({ categories: [], tags: [], venues: [], organizers: [], loaded: true });
  useEvents.setState({ events: [], query: null });
  useUndo.getState().clear();
  useUi.setState({ editor: null, quickCreate: null });
});
afterEach(cleanup);


const scopeDialog = () => screen.findByRole('dialog', { name: 'Edit repeating event' });

describe('the editor', () => {
  it('creates "every Tuesday and Thursday, 10 times"', async () => {
    const created = makeEvent({ id: 10, title: 'Yoga', recurrence: { rules: [RULE], rdates: [], exdates: [] }, series_id: 10 });
    const api = mockApi({ 'POST events': { status: 201, body: created }, 'GET events': noEvents });
    useEvents.setState({ query: { range: { start: new Date(2031, 2, 1), end: new Date(2031, 3, 1) }, filters: emptyFilters(), language: 'en' } });
    useUi.setState({ editor: { kind: 'create', draft } });
    render(<EventEditor target={{ kind: 'create', draft }} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Yoga' } });
    const when = screen.getByRole('group', { name: 'When' });
    fireEvent.change(within(when).getByRole('combobox', { name: 'Repeat' }), { target: { value: 'weekly' } });
    fireEvent.click(within(when).getByRole('checkbox', { name: 'Thursday' }));
    fireEvent.change(within(when).getByRole('combobox', { name: 'Ends' }), { target: { value: 'count' } });
    fireEvent.change(within(when).getByRole('spinbutton', { name: 'Number of times' }), { target: { value: '10' } });
    expect(within(when).getByText('Every Tuesday and Thursday, 10 times')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('POST', 'events')).toHaveLength(1));
    expect(api.to('POST', 'events')[0].body).toMatchObject({ title: 'Yoga', start_date: '2031-03-11 10:00:00', recurrence: { rules: [RULE], rdates: [], exdates: [] } });
    await waitFor(() => expect(useUi.getState().editor).toBeNull());
    // The other occurrences are new rows: the whole range is read again.
    await waitFor(() => expect(api.to('GET', 'events').length).toBeGreaterThan(0));
  });

  it('blocks Save with a field error while the repetition is incomplete', async () => {
    const api = mockApi({});
    useUi.setState({ editor: { kind: 'create', draft } });
    render(<EventEditor target={{ kind: 'create', draft }} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Yoga' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Repeat' }), { target: { value: 'daily' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Ends' }), { target: { value: 'until' } });
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: '2031-03-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Some fields need attention.');
    expect(screen.getByLabelText('End date').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The end date is before the event starts.')).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  it('asks which occurrences to change and sends the answer as recurrence_scope; undo re-sends the old values with it', async () => {
    const e = occurrence();
    const api = mockApi({ 'PATCH events/12': (c) => ({ body: { ...e, ...(c.body as object) } }), 'GET events': noEvents });
    openEditor(e);
    // Read back from the series: weekly on Tuesday and Thursday, 10 times.
    expect((screen.getByRole('combobox', { name: 'Repeat' }) as HTMLSelectElement).value).toBe('weekly');
    expect(screen.getByText('Every Tuesday and Thursday, 10 times')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Hot yoga' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await scopeDialog();
    expect(within(dialog).getAllByRole('button').map((b) => b.textContent)).toEqual(['This event', 'This and following events', 'All events', 'Cancel']);
    expect(api.calls).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'All events' }));
    await waitFor(() => expect(api.to('PATCH', 'events/12')).toHaveLength(1));
    const [patch] = api.to('PATCH', 'events/12');
    // The rule was not touched, so it is not sent.
    expect(patch.body).toEqual({ title: 'Hot yoga' });
    expect(scopeOf(patch)).toBe('all');
    await waitFor(() => expect(useUi.getState().editor).toBeNull());

    await act(() => undoLast());
    const undo = api.to('PATCH', 'events/12')[1];
    expect(undo.body).toEqual({ title: 'Yoga' });
    expect(scopeOf(undo)).toBe('all');
  });

  it('stays open and sends nothing when the question is cancelled', async () => {
    const e = occurrence();
    const api = mockApi({});
    openEditor(e);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Hot yoga' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(within(await scopeDialog()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit repeating event' })).toBeNull());
    expect(api.calls).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: 'Edit event' })).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Title' }) as HTMLInputElement).value).toBe('Hot yoga');
  });

  it('sends a changed rule with the deleted dates kept, and never for this occurrence alone', async () => {
    const e = occurrence();
    const api = mockApi({ 'PATCH events/12': (c) => ({ body: { ...e, ...(c.body as object) } }), 'GET events': noEvents });
    openEditor(e);
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Number of times' }), { target: { value: '6' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await scopeDialog();
    expect(within(dialog).queryByRole('button', { name: 'This event' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'This and following events' }));
    await waitFor(() => expect(api.to('PATCH', 'events/12')).toHaveLength(1));
    const [patch] = api.to('PATCH', 'events/12');
    expect(patch.body).toEqual({ recurrence: { rules: ['FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6'], rdates: [], exdates: ['20310320T100000'] } });
    expect(scopeOf(patch)).toBe('following');

    // Undo joins the two series again: the new one goes, the old one gets its whole rule back
    // (the old COUNT=10 on the new series would count ten more from here).
    api.routes['DELETE events/12'] = { body: occurrence({ status: 'trash' }) };
    api.routes['PATCH events/10'] = { body: occurrence({ id: 10 }) };
    await act(() => undoLast());
    expect(api.to('DELETE', 'events/12').map((c) => [scopeOf(c), c.url.searchParams.get('force')])).toEqual([
      ['all', null],
      [null, 'true'],
    ]);
    expect(api.to('PATCH', 'events/10')[0].body).toEqual({ recurrence: series });
    expect(scopeOf(api.to('PATCH', 'events/10')[0])).toBe('all');
  });

  it('never re-sends a custom rule it did not touch, and turns a series back into one event', async () => {
    const custom = { rules: ['FREQ=MONTHLY;BYDAY=TU;BYSETPOS=2'], rdates: [], exdates: [] };
    const e = occurrence({ recurrence: custom });
    const api = mockApi({ 'PATCH events/12': (c) => ({ body: { ...e, ...(c.body as object) } }), 'GET events': noEvents });
    openEditor(e);
    expect((screen.getByRole('combobox', { name: 'Repeat' }) as HTMLSelectElement).value).toBe('custom');
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Hot yoga' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(within(await scopeDialog()).getByRole('button', { name: 'This event' }));
    await waitFor(() => expect(api.to('PATCH', 'events/12')).toHaveLength(1));
    expect(api.to('PATCH', 'events/12')[0].body).toEqual({ title: 'Hot yoga' });
    expect(scopeOf(api.to('PATCH', 'events/12')[0])).toBe('this');
    cleanup();

    openEditor(e);
    fireEvent.change(screen.getByRole('combobox', { name: 'Repeat' }), { target: { value: 'none' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(within(await scopeDialog()).getByRole('button', { name: 'All events' }));
    await waitFor(() => expect(api.to('PATCH', 'events/12')).toHaveLength(2));
    expect(api.to('PATCH', 'events/12')[1].body).toEqual({ recurrence: null });
  });

  it('makes a single event repeat without asking; undo takes the rule back series-wide', async () => {
    const e = makeEvent({ id: 5, title: 'Talk', start_date: '2031-03-11 10:00:00', end_date: '2031-03-11 11:00:00', recurrence: null, series_id: null });
    const api = mockApi({ 'PATCH events/5': (c) => ({ body: { ...e, ...(c.body as object), series_id: 5 } }), 'GET events': noEvents });
    openEditor(e);
    fireEvent.change(screen.getByRole('combobox', { name: 'Repeat' }), { target: { value: 'daily' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('PATCH', 'events/5')).toHaveLength(1));
    expect(screen.queryByRole('dialog', { name: 'Edit repeating event' })).toBeNull();
    expect(api.to('PATCH', 'events/5')[0].body).toEqual({ recurrence: { rules: ['FREQ=DAILY'], rdates: [], exdates: [] } });
    expect(scopeOf(api.to('PATCH', 'events/5')[0])).toBeNull();
    await act(() => undoLast());
    // The server refuses a rule change for one occurrence (the default scope).
    expect(api.to('PATCH', 'events/5')[1].body).toEqual({ recurrence: null });
    expect(scopeOf(api.to('PATCH', 'events/5')[1])).toBe('all');
  });

  it('shows the server’s word on the rule next to the Repeat control', async () => {
    const e = occurrence();
    mockApi({
      'PATCH events/12': { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): recurrence', data: { status: 400, params: { recurrence: 'More than 1,000 occurrences a day.' } } } },
    });
    openEditor(e);
    fireEvent.change(screen.getByRole('combobox', { name: 'Repeat' }), { target: { value: 'daily' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(within(await scopeDialog()).getByRole('button', { name: 'All events' }));
    // The banner says it in plain words with the field's name (never "Invalid parameter(s)"), and the field shows it too.
    expect((await screen.findByRole('alert')).textContent).toBe('Repeat: More than 1,000 occurrences a day.');
    expect(screen.getAllByText(/More than 1,000 occurrences a day\./).length).toBeGreaterThan(1);
    expect(screen.getByRole('combobox', { name: 'Repeat' }).getAttribute('aria-invalid')).toBe('true');
    expect(useUi.getState().editor).not.toBeNull();
  });

  it('Delete asks while the editor is open: Cancel comes back to it, an answer deletes with that scope', async () => {
    const e = occurrence();
    const api = mockApi({ 'DELETE events/12': { body: occurrence({ status: 'trash' }) }, 'GET events': noEvents });
    openEditor(e);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const question = await screen.findByRole('dialog', { name: 'Delete repeating event' });
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete repeating event' })).toBeNull());
    expect(useUi.getState().editor).not.toBeNull();
    expect(api.calls).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete repeating event' })).getByRole('button', { name: 'All events' }));
    await waitFor(() => expect(api.to('DELETE', 'events/12')).toHaveLength(1));
    expect(scopeOf(api.to('DELETE', 'events/12')[0])).toBe('all');
    expect(useUi.getState().editor).toBeNull();
  });

  it('does not ask for a single event', async () => {
    const e = makeEvent({ id: 5, title: 'Talk', recurrence: null, series_id: null });
    const api = mockApi({ 'PATCH events/5': (c) => ({ body: { ...e, ...(c.body as object) } }), 'GET events': noEvents });
    openEditor(e);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Talk 2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('PATCH', 'events/5')).toHaveLength(1));
    expect(scopeOf(api.to('PATCH', 'events/5')[0])).toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Edit repeating event' })).toBeNull();
  });
});

describe('quick create', () => {
  it('sends the repetition chosen, and refuses an impossible one', async () => {
    const api = mockApi({ 'POST events': { status: 201, body: makeEvent({ id: 70, title: 'Standup', recurrence: { rules: ['FREQ=DAILY;COUNT=5'], rdates: [], exdates: [] } }) }, 'GET events': noEvents });
    useUi.setState({ quickCreate: draft });
    render(<QuickCreate draft={draft} />);
    const dialog = screen.getByRole('dialog', { name: 'New event' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Title' }), { target: { value: 'Standup' } });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Repeat' }), { target: { value: 'daily' } });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Ends' }), { target: { value: 'count' } });
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Number of times' }), { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter how many times, from 1 to 9999.')).toBeTruthy();
    expect(api.calls).toHaveLength(0);
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Number of times' }), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(useUi.getState().quickCreate).toBeNull());
    expect(api.to('POST', 'events')[0].body).toEqual({ title: 'Standup', ...draft, status: 'publish', reminders: [], recurrence: { rules: ['FREQ=DAILY;COUNT=5'], rdates: [], exdates: [] } });
  });

  it('"More options" carries the repetition into the full editor', () => {
    useUi.setState({ quickCreate: draft });
    render(<QuickCreate draft={draft} />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Repeat' }), { target: { value: 'monthly' } });
    fireEvent.click(screen.getByRole('button', { name: 'More options' }));
    const target = useUi.getState().editor!;
    expect(target.kind === 'create' && target.draft.recurrence).toEqual({ rules: ['FREQ=MONTHLY;BYMONTHDAY=11'], rdates: [], exdates: [] });
    cleanup();
    render(<EventEditor target={target} />);
    expect((screen.getByRole('combobox', { name: 'Repeat' }) as HTMLSelectElement).value).toBe('monthly');
    expect(screen.getByText('Monthly on day 11')).toBeTruthy();
  });
});

describe('duplicating an occurrence', () => {
  it('opens a new series with the same rule from that occurrence, shown before it is saved, without the series\' deleted dates', async () => {
    // The fourth occurrence: Thursday 20 March (a deleted date of the series is the 20th at 10:00; this one was moved).
    const e = occurrence({ id: 13, start_date: '2031-03-20 15:00:00', end_date: '2031-03-20 16:00:00', recurrence_id: '2031-03-20 10:00:00', is_exception: true });
    const created = makeEvent({ id: 40, title: 'Yoga', recurrence: { rules: [RULE], rdates: [], exdates: [] }, series_id: 40 });
    const api = mockApi({ 'POST events': { status: 201, body: created }, 'GET events': noEvents });
    render(<EventDetails event={e} />);
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Yoga' })).getByRole('button', { name: 'Duplicate' }));
    const target = useUi.getState().editor!;
    expect(target.kind).toBe('create');
    cleanup();
    render(<EventEditor target={target} />);
    const when = screen.getByRole('group', { name: 'When' });
    expect((within(when).getByRole('combobox', { name: 'Repeat' }) as HTMLSelectElement).value).toBe('weekly');
    expect(within(when).getByText('Every Tuesday and Thursday, 10 times')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('POST', 'events')).toHaveLength(1));
    expect(api.to('POST', 'events')[0].body).toMatchObject({
      title: 'Yoga',
      start_date: '2031-03-20 15:00:00',
      end_date: '2031-03-20 16:00:00',
      recurrence: { rules: [RULE], rdates: [], exdates: [] },
    });
  });

  it('of a single event stays a single event', async () => {
    const api = mockApi({ 'POST events': { status: 201, body: makeEvent({ id: 41 }) }, 'GET events': noEvents });
    render(<EventDetails event={makeEvent({ id: 5, title: 'Dentist', start_date: '2031-03-20 15:00:00', end_date: '2031-03-20 16:00:00' })} />);
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Dentist' })).getByRole('button', { name: 'Duplicate' }));
    const target = useUi.getState().editor!;
    cleanup();
    render(<EventEditor target={target} />);
    expect((screen.getByRole('combobox', { name: 'Repeat' }) as HTMLSelectElement).value).toBe('none');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('POST', 'events')).toHaveLength(1));
    expect(api.to('POST', 'events')[0].body).not.toHaveProperty('recurrence');
  });
});

describe('moving and deleting an occurrence', () => {
  const to = { start: new Date('2031-03-19T10:00:00Z'), end: new Date('2031-03-19T11:00:00Z'), allDay: false, startDay: '2031-03-19', endDay: '2031-03-19' };

  async function answerWith(name: string, kind = 'Edit repeating event') {
    fireEvent.click(within(await screen.findByRole('dialog', { name: kind })).getByRole('button', { name }));
  }

  it('undoing a move of this and following joins the two series again, unless the new one has changes of its own', async () => {
    for (const exception of [false, true]) {
      const e = occurrence();
      const api = mockApi({
        'PATCH events/12': (c) => ({ body: { ...e, ...(c.body as object), series_id: 12 } }),
        'PATCH events/10': { body: occurrence({ id: 10 }) },
        'DELETE events/12': { body: occurrence({ status: 'trash' }) },
        'GET events': (c) =>
          c.url.searchParams.get('post_parent') === '12' ? { body: { events: [occurrence({ id: 13, is_exception: exception })], total: 1, total_pages: 1 } } : noEvents,
      });
      render(<ScopeDialogHost />);
      const done = moveEvent(e, to, () => {});
      await answerWith('This and following events');
      await done;
      expect(scopeOf(api.to('PATCH', 'events/12')[0])).toBe('following');
      await act(() => undoLast());
      if (!exception) {
        expect(api.to('DELETE', 'events/12').map((c) => [scopeOf(c), c.url.searchParams.get('force')])).toEqual([['all', null], [null, 'true']]);
        expect(api.to('PATCH', 'events/10').map((c) => [c.body, scopeOf(c)])).toEqual([[{ recurrence: series }, 'all']]);
      } else {
        expect(api.to('DELETE', 'events/12')).toEqual([]);
        expect(api.to('PATCH', 'events/12').map((c) => [c.body, scopeOf(c)])[1]).toEqual([{ start_date: '2031-03-18 10:00:00', end_date: '2031-03-18 11:00:00', all_day: false }, 'following']);
      }
      cleanup();
    }
  });

  it('a drag asks first; Cancel puts the occurrence back and sends nothing', async () => {
    const api = mockApi({});
    render(<ScopeDialogHost />);
    const revert = vi.fn();
    const done = moveEvent(occurrence(), to, revert);
    await answerWith('Cancel');
    await done;
    expect(revert).toHaveBeenCalledOnce();
    expect(api.calls).toHaveLength(0);
  });

  it('a drag of this event only sends its new time with scope "this"; undo puts it back the same way', async () => {
    const e = occurrence();
    const api = mockApi({ 'PATCH events/12': (c) => ({ body: { ...e, ...(c.body as object), is_exception: true } }), 'GET events': noEvents });
    render(<ScopeDialogHost />);
    const done = moveEvent(e, to, () => {});
    await answerWith('This event');
    await done;
    const [patch] = api.to('PATCH', 'events/12');
    expect(patch.body).toEqual({ start_date: '2031-03-19 10:00:00', end_date: '2031-03-19 11:00:00' });
    expect(scopeOf(patch)).toBe('this');
    await act(() => undoLast());
    expect(api.to('PATCH', 'events/12')[1].body).toEqual({ start_date: '2031-03-18 10:00:00', end_date: '2031-03-18 11:00:00', all_day: false });
    expect(scopeOf(api.to('PATCH', 'events/12')[1])).toBe('this');
  });

  it('deleting this occurrence sends scope "this"; undo restores it', async () => {
    const api = mockApi({ 'DELETE events/12': { body: occurrence({ status: 'trash' }) }, 'POST events/12': { body: occurrence() }, 'GET events': noEvents });
    render(<ScopeDialogHost />);
    const done = trashEvent(occurrence());
    await answerWith('This event', 'Delete repeating event');
    await done;
    expect(scopeOf(api.to('DELETE', 'events/12')[0])).toBe('this');
    await act(() => undoLast());
    expect(api.to('POST', 'events/12')[0].body).toEqual({ status: 'publish' });
  });

  it('deleting this and following cuts the series short; undo gives the series its rule and those occurrences back', async () => {
    // In the trash: an occurrence deleted on its own before (20 March, in the EXDATEs), one from
    // before this one, and this one and a later one, trashed with it.
    const trashed = [
      occurrence({ id: 11, start_date: '2031-03-13 10:00:00', recurrence_id: '2031-03-13 10:00:00', status: 'trash' }),
      occurrence({ id: 13, start_date: '2031-03-20 10:00:00', recurrence_id: '2031-03-20 10:00:00', status: 'trash' }),
      occurrence({ id: 12, status: 'trash' }),
      occurrence({ id: 14, start_date: '2031-03-25 10:00:00', recurrence_id: '2031-03-25 10:00:00', status: 'trash' }),
    ];
    const api = mockApi({
      'DELETE events/12': { body: occurrence({ status: 'trash' }) },
      'PATCH events/10': { body: occurrence({ id: 10 }) },
      'POST events/:id': (c) => ({ body: occurrence({ id: Number(c.url.pathname.split('/').pop()) }) }),
      'GET events': (c) => (c.url.searchParams.get('status') === 'trash' ? { body: { events: trashed, total: 4, total_pages: 1 } } : noEvents),
    });
    render(<ScopeDialogHost />);
    const done = trashEvent(occurrence());
    await answerWith('This and following events', 'Delete repeating event');
    await done;
    expect(scopeOf(api.to('DELETE', 'events/12')[0])).toBe('following');
    await act(() => undoLast());
    const [patch] = api.to('PATCH', 'events/10');
    expect(patch.body).toEqual({ recurrence: series });
    expect(scopeOf(patch)).toBe('all');
    const listed = api.calls.find((c) => c.method === 'GET' && c.url.searchParams.get('status') === 'trash')!;
    expect(listed.url.searchParams.get('post_parent')).toBe('10');
    const restored = api.calls.filter((c) => c.method === 'POST').map((c) => c.url.pathname.split('/').pop());
    expect(restored).toEqual(['12', '14']);
  });

  it('deleting all trashes the series; undo restores it whole through the occurrence deleted, for all', async () => {
    const api = mockApi({ 'DELETE events/12': { body: occurrence({ status: 'trash' }) }, 'PATCH events/12': { body: occurrence() }, 'GET events': noEvents });
    render(<ScopeDialogHost />);
    const done = trashEvent(occurrence());
    await answerWith('All events', 'Delete repeating event');
    await done;
    expect(scopeOf(api.to('DELETE', 'events/12')[0])).toBe('all');
    await act(() => undoLast());
    const [restore] = api.to('PATCH', 'events/12');
    expect([restore.body, scopeOf(restore)]).toEqual([{ status: 'publish' }, 'all']);
  });

  it('a single event is deleted without a question', async () => {
    const api = mockApi({ 'DELETE events/5': { body: makeEvent({ id: 5, status: 'trash' }) } });
    render(<ScopeDialogHost />);
    await trashEvent(makeEvent({ id: 5, recurrence: null }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(scopeOf(api.to('DELETE', 'events/5')[0])).toBeNull();
  });
});

describe('the repeat mark', () => {
  it('names an occurrence of a series "Repeats", and nothing on a single event', () => {
    const labels = { featured: 'Featured', sticky: 'Sticky', repeats: 'Repeats' };
    const { container } = render(<Badges event={occurrence()} labels={labels} />);
    expect(container.textContent).toBe(' Repeats');
    expect(container.querySelector('svg')).toBeTruthy();
    cleanup();
    expect(render(<Badges event={makeEvent({ recurrence: null })} labels={labels} />).container.textContent).toBe('');
  });
});
