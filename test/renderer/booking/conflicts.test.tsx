// @vitest-environment happy-dom
/**
 * Double-booking warnings in the calendar window (issue 27 §2), against a real server: the sentence
 * in three languages on the Settings' clock, the editor's warning (Save still possible), and a drag
 * that asks "Move anyway?" before it saves — put back on Cancel, saved on Move anyway.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Event } from '@shared/api/records';
import i18n from '../../../renderer/src/i18n';
import { ApiClient } from '../../../renderer/src/api/client';
import { setApiClient } from '../../../renderer/src/state/api';
import { setViewerZone } from '../../../renderer/src/lib/dates';
import { useSettings } from '../../../renderer/src/state/settings';
import { useCalendarSettings } from '../../../renderer/src/state/calendarSettings';
import { useLookups } from '../../../renderer/src/state/lookups';
import { conflictSentence, findConflicts, type Placement } from '../../../renderer/src/booking/conflicts';
import { ConflictConfirmHost } from '../../../renderer/src/booking/ConflictWarning';
import { EventEditor } from '../../../renderer/src/editor/EventEditor';
import { moveEvent } from '../../../renderer/src/state/eventActions';
import { startTestServer, type TestServer } from '../../helpers/server';
import { nodeFetch } from '../helpers';

/** The double-booking answers the client has read, in order: a warning's absence is checked after one. */
const conflictAnswers: string[] = [];
async function recordingFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const res = await nodeFetch(input, init);
  if (!String(input).includes('/events/conflicts')) return res;
  const text = res.text.bind(res);
  res.text = async () => {
    const body = await text();
    conflictAnswers.push(body);
    return body;
  };
  return res;
}

/** Waits until the editor's question has been answered and what the answer makes is on screen. */
async function answered(count: number) {
  await waitFor(() => expect(conflictAnswers.length).toBeGreaterThanOrEqual(count));
  await act(async () => {});
  return JSON.parse(conflictAnswers[count - 1]) as { events: Event[] };
}

let t: TestServer;
let luso: number;
let ana: number;
let recital: Event;

const clock = (time_format: '12h' | '24h') => useCalendarSettings.setState((s) => ({ settings: { ...s.settings, time_format } }));
async function language(lang: 'en' | 'pt-br' | 'es') {
  useSettings.setState({ uiLanguage: lang, contentLanguage: 'en' });
  await i18n.changeLanguage(lang);
}

beforeAll(async () => {
  t = await startTestServer();
  setApiClient(new ApiClient({ base: `${t.server.url}/cal/events/v1/`, token: 'test-token-0123456789abcdef', language: () => 'en', fetch: recordingFetch as typeof fetch }));
  setViewerZone('Europe/Lisbon');
  luso = (await t.api('post', 'venues').send({ venue: 'Sala Luso' })).body.id;
  ana = (await t.api('post', 'organizers').send({ organizer: 'Ana Lima' })).body.id;
  recital = (
    await t.api('post', 'events').send({ title: 'Recital', start_date: '2031-01-14 19:00:00', end_date: '2031-01-14 21:00:00', timezone: 'Europe/Lisbon', venue: luso, organizer: [ana] })
  ).body;
  const venues = (await t.api('get', 'venues')).body.venues;
  const organizers = (await t.api('get', 'organizers')).body.organizers;
  useLookups.setState({ categories: [], tags: [], venues, organizers, loaded: true });
});
afterEach(async () => {
  cleanup();
  clock('24h');
  await language('en');
});
afterAll(async () => {
  setApiClient(null);
  setViewerZone(null);
  await t?.close();
});

const evening: Placement = { start_date: '2031-01-14 20:00:00', end_date: '2031-01-14 22:00:00', timezone: 'Europe/Lisbon', venue: null, organizers: [] };

describe('the sentence', () => {
  it('says which event holds the venue, when, on the Settings clock, in three languages', async () => {
    const [c] = await findConflicts({ ...evening, venue: luso });
    clock('24h');
    await language('en');
    expect(conflictSentence(c, '2031-01-14')).toBe('Sala Luso is booked 19:00–21:00 by Recital');
    await language('pt-br');
    expect(conflictSentence(c, '2031-01-14')).toBe('Sala Luso tem reserva 19:00–21:00: Recital');
    await language('es');
    expect(conflictSentence(c, '2031-01-14')).toBe('Sala Luso tiene una reserva 19:00–21:00: Recital');
    await language('en');
    clock('12h');
    expect(conflictSentence(c, '2031-01-14')).toBe('Sala Luso is booked 7:00\u00a0PM–9:00\u00a0PM by Recital');
    // Asked from another day (a week-long placement), the day is said too.
    clock('24h');
    expect(conflictSentence(c, '2031-01-13')).toBe('Sala Luso is booked Tue, Jan 14 19:00–21:00 by Recital');
  });

  it('names the organizer and where the other event is', async () => {
    const [c] = await findConflicts({ ...evening, organizers: [ana] });
    expect(conflictSentence(c, '2031-01-14')).toBe('Ana Lima is busy 19:00–21:00 with Recital at Sala Luso');
  });

  it('asks nothing of a placement without an existing venue or organizer, and finds none at touching ends', async () => {
    expect(await findConflicts(evening)).toEqual([]);
    expect(await findConflicts({ ...evening, start_date: '2031-01-14 21:00:00', venue: luso })).toEqual([]);
  });
});

describe('the editor', () => {
  it('warns before saving when the venue is held then, and Save still saves', async () => {
    const talk: Event = (await t.api('post', 'events').send({ title: 'Talk', start_date: '2031-01-14 17:00:00', end_date: '2031-01-14 18:00:00', timezone: 'Europe/Lisbon', venue: luso })).body;
    const asked = conflictAnswers.length;
    render(<EventEditor target={{ kind: 'edit', event: talk }} />);
    // 17:00–18:00 touches nothing.
    expect((await answered(asked + 1)).events).toEqual([]);
    expect(screen.queryByTestId('conflict-warning')).toBeNull();
    // Ending at 20:00 overlaps the recital.
    const end = screen.getByLabelText('End time') as HTMLInputElement;
    fireEvent.change(end, { target: { value: '20:00' } });
    fireEvent.blur(end);
    const warning = await screen.findByTestId('conflict-warning', {}, { timeout: 3000 });
    expect(warning.textContent).toContain('Sala Luso is booked 19:00–21:00 by Recital');
    expect(warning.textContent).toContain('You can still save.');
    const save = screen.getByRole('button', { name: 'Save' });
    expect((save as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(save);
    await waitFor(async () => expect((await t.api('get', `events/${talk.id}`)).body.end_date).toBe('2031-01-14 20:00:00'));
  });

  it('says nothing of the event being edited itself', async () => {
    // Alone at its venue: only itself holds it then.
    const sol = (await t.api('post', 'venues').send({ venue: 'Sala Sol' })).body.id;
    const solo: Event = (await t.api('post', 'events').send({ title: 'Solo', start_date: '2031-02-01 19:00:00', end_date: '2031-02-01 21:00:00', timezone: 'Europe/Lisbon', venue: sol })).body;
    const asked = conflictAnswers.length;
    render(<EventEditor target={{ kind: 'edit', event: solo }} />);
    await answered(asked + 1);
    expect(screen.queryByTestId('conflict-warning')).toBeNull();
  });
});

describe('a drag', () => {
  it('asks before it saves: Cancel puts it back, Move anyway saves', async () => {
    const walk: Event = (await t.api('post', 'events').send({ title: 'Walk', start_date: '2031-01-15 19:00:00', end_date: '2031-01-15 20:00:00', timezone: 'Europe/Lisbon', venue: luso })).body;
    render(<ConflictConfirmHost />);
    const to = { start: new Date('2031-01-14T19:30:00Z'), end: new Date('2031-01-14T20:30:00Z'), allDay: false, startDay: '2031-01-14', endDay: '2031-01-14' };
    const revert = vi.fn();
    let done = moveEvent(walk, to, revert);
    const dialog = await screen.findByRole('dialog', { name: 'Double booking' });
    expect(dialog.textContent).toContain('Sala Luso is booked 19:00–21:00 by Recital');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await act(() => done);
    expect(revert).toHaveBeenCalledOnce();
    expect((await t.api('get', `events/${walk.id}`)).body.start_date).toBe('2031-01-15 19:00:00');

    done = moveEvent(walk, to, revert);
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Double booking' })).getByRole('button', { name: 'Move anyway' }));
    await act(() => done);
    expect(revert).toHaveBeenCalledOnce();
    expect((await t.api('get', `events/${walk.id}`)).body.start_date).toBe('2031-01-14 19:30:00');
  });

  it('saves at once where nobody holds the venue', async () => {
    const run: Event = (await t.api('post', 'events').send({ title: 'Run', start_date: '2031-01-16 07:00:00', end_date: '2031-01-16 08:00:00', timezone: 'Europe/Lisbon', venue: luso })).body;
    render(<ConflictConfirmHost />);
    const revert = vi.fn();
    await act(() => moveEvent(run, { start: new Date('2031-01-16T08:00:00Z'), end: new Date('2031-01-16T09:00:00Z'), allDay: false, startDay: '2031-01-16', endDay: '2031-01-16' }, revert));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((await t.api('get', `events/${run.id}`)).body.start_date).toBe('2031-01-16 08:00:00');
  });
});
