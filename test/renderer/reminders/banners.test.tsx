// @vitest-environment happy-dom
/**
 * Reminders where they show in the window (issue 16): the stream read through fetch, a banner per
 * reminder with Snooze and Dismiss going to the API, the "while closed" summary once, a Web
 * Notification only after the user allowed it on a press, and a click opening the details card.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../../renderer/src/i18n';
import { ApiClient } from '../../../renderer/src/api/client';
import { ReminderBanners } from '../../../renderer/src/reminders/ReminderBanners';
import { useAlerts } from '../../../renderer/src/reminders/alerts';
import { useSettings } from '../../../renderer/src/state/settings';
import { useCalendarSettings } from '../../../renderer/src/state/calendarSettings';
import { useUi } from '../../../renderer/src/state/ui';
import { useToasts } from '../../../renderer/src/state/toasts';
import { makeEvent, mockApi } from '../helpers';
import { makeDue as due } from '../../helpers/due-reminder';

const NOW = Date.parse('2031-03-12T09:55:00Z');

beforeEach(async () => {
  localStorage.clear();
  useToasts.setState({ toasts: [] });
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
  useAlerts.setState({ alerts: [], missed: null, permission: 'unsupported' });
  useUi.setState({ details: null, screen: 'calendar' });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the reminders stream', () => {
  it('reads events split anywhere across chunks, sending the token as every request does', async () => {
    const text = `: reminders\n\nevent: due\ndata: ${JSON.stringify({ type: 'due', reminder: due() })}\n\n: still here\n\nevent: missed\ndata: ${JSON.stringify({ type: 'missed', count: 40, reminders: [due({ key: 'k2' })] })}\n\n`;
    const chunks = [text.slice(0, 17), text.slice(17, 60), text.slice(60, 200), text.slice(200)];
    let headers: Record<string, string> = {};
    const fetchImpl = async (_url: RequestInfo | URL, init: RequestInit = {}) => {
      headers = init.headers as Record<string, string>;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
          c.close();
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
    };
    const client = new ApiClient({ base: 'http://127.0.0.1:4780/cal/events/v1/', token: 'secret', language: () => 'en', fetch: fetchImpl as typeof fetch });
    const seen: string[] = [];
    let opened = 0;
    await client.reminderStream((m) => seen.push(m.type === 'due' ? `due ${m.reminder.key}` : `missed ${m.count}`), () => opened++, new AbortController().signal);
    expect(opened).toBe(1);
    expect(seen).toEqual(['due k1', 'missed 40']);
    expect(headers.Authorization).toBe('Bearer secret');
  });
});

describe('the banners', () => {
  it('shows a named alert per reminder; Snooze and Dismiss go to the API and take it away', async () => {
    const api = mockApi({ 'POST reminders/k1/snooze': { body: due() }, 'POST reminders/k2/dismiss': { body: { key: 'k2', dismissed: true } } });
    render(<ReminderBanners now={() => NOW} />);
    act(() => {
      useAlerts.getState().receive({ type: 'due', reminder: due() });
      useAlerts.getState().receive({ type: 'due', reminder: due({ key: 'k2', title: 'Standup', utc_start_date: '2031-03-12 09:00:00' }) });
    });
    const first = screen.getByRole('alert', { name: 'Reminder: Dentist & check-up' });
    expect(within(first).getByRole('group', { name: 'Snooze' })).toBeTruthy();
    expect(within(first).getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent)).toEqual([
      'Dentist & check-up',
      'Dismiss',
      'Snooze 5 min',
      'Snooze 10 min',
      'Snooze 1 hour',
      'Snooze until start',
    ]);
    // Standup started already: "until start" would ring at once.
    const second = screen.getByRole('alert', { name: 'Reminder: Standup' });
    expect(within(second).queryByRole('button', { name: 'Snooze until start' })).toBeNull();

    fireEvent.click(within(first).getByRole('button', { name: 'Snooze 10 min' }));
    await waitFor(() => expect(screen.queryByRole('alert', { name: 'Reminder: Dentist & check-up' })).toBeNull());
    expect(api.to('POST', 'reminders/k1/snooze')[0].body).toEqual({ for: '10m' });
    fireEvent.click(within(second).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(api.to('POST', 'reminders/k2/dismiss')).toHaveLength(1);
  });

  it('keeps a banner the server refused to snooze, and says why', async () => {
    mockApi({ 'POST reminders/k1/snooze': { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): for', data: { status: 400 } } } });
    render(<ReminderBanners now={() => NOW} />);
    act(() => useAlerts.getState().receive({ type: 'due', reminder: due() }));
    fireEvent.click(screen.getByRole('button', { name: 'Snooze 5 min' }));
    await waitFor(() => expect(useToasts.getState().toasts.map((t) => t.message)).toContain('Invalid parameter(s): for'));
    expect(screen.getByRole('alert', { name: 'Reminder: Dentist & check-up' })).toBeTruthy();
  });

  it('opens the details card from the title', async () => {
    mockApi({ 'GET events/7': { body: makeEvent({ id: 7, title: 'Dentist' }) } });
    render(<ReminderBanners now={() => NOW} />);
    act(() => useAlerts.getState().receive({ type: 'due', reminder: due() }));
    fireEvent.click(screen.getByRole('button', { name: 'Dentist & check-up' }));
    await waitFor(() => expect(useUi.getState().details?.id).toBe(7));
  });

  it('shows what came due while closed once, as one summary, never a banner each', async () => {
    const api = mockApi(Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`POST reminders/m${i}/dismiss`, { body: { key: `m${i}`, dismissed: true } }])));
    render(<ReminderBanners now={() => NOW} />);
    const six = Array.from({ length: 6 }, (_, i) => due({ key: `m${i}`, title: `Meeting ${i}` }));
    act(() => useAlerts.getState().receive({ type: 'missed', count: 130, reminders: six }));
    const summary = screen.getByRole('alert', { name: 'While Almanac was closed' });
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(within(summary).getAllByRole('listitem')).toHaveLength(5);
    expect(summary.textContent).toContain('and 125 more');
    fireEvent.click(within(summary).getByRole('button', { name: 'Dismiss all' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(6);
  });

  it('"Dismiss all" reaches the ones the summary counts but does not name; one dismissed elsewhere is no error', async () => {
    const named = [due({ key: 'n1', due_at: '2031-03-12T08:00:00Z' }), due({ key: 'n2', due_at: '2031-03-12T09:00:00Z' })];
    const unnamed = due({ key: 'u1', due_at: '2031-03-12T07:00:00Z' });
    const later = due({ key: 'later', due_at: '2031-03-12T09:30:00Z' });
    const gone = { status: 404, body: { code: 'reminder-not-found', message: 'No such reminder.', data: { status: 404 } } };
    const api = mockApi({
      'GET reminders/due': { body: { reminders: [unnamed, ...named, later] } },
      'POST reminders/n1/dismiss': gone,
      'POST reminders/n2/dismiss': { body: { key: 'n2', dismissed: true } },
      'POST reminders/u1/dismiss': { body: { key: 'u1', dismissed: true } },
    });
    render(<ReminderBanners now={() => NOW} />);
    act(() => useAlerts.getState().receive({ type: 'missed', count: 3, reminders: named }));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss all' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.url.pathname.split('/').at(-2))).toEqual(['n1', 'n2', 'u1']);
    expect(useToasts.getState().toasts).toEqual([]);
  });

  it('a closed summary does not come back on the next load; a reminder due after it does', () => {
    render(<ReminderBanners now={() => NOW} />);
    const old = Array.from({ length: 5 }, (_, i) => due({ key: `o${i}`, due_at: `2031-03-12T0${i}:00:00Z` }));
    act(() => useAlerts.getState().catchUp(old));
    fireEvent.click(within(screen.getByRole('alert', { name: 'While Almanac was closed' })).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alert')).toBeNull();
    // The next load of the page: the same list from the API, plus one snoozed that came due since.
    act(() => useAlerts.setState({ alerts: [], missed: null }));
    act(() => useAlerts.getState().catchUp([...old, due({ key: 'snoozed', title: 'Call Ana', due_at: '2031-03-12T09:54:00Z' })]));
    expect(screen.getAllByRole('alert').map((a) => a.getAttribute('aria-label'))).toEqual(['Reminder: Call Ana']);
  });

  it('catches up after connecting: a few as banners, many as one summary', () => {
    render(<ReminderBanners now={() => NOW} />);
    act(() => useAlerts.getState().catchUp([due({ key: 'a' }), due({ key: 'b', title: 'Lunch' })]));
    expect(screen.getAllByRole('alert')).toHaveLength(2);
    act(() => useAlerts.getState().catchUp([due({ key: 'a' }), due({ key: 'c' }), due({ key: 'd' })]));
    expect(screen.getAllByRole('alert').map((a) => a.getAttribute('aria-label'))).toEqual(['While Almanac was closed']);
  });
});

describe('Web Notifications', () => {
  class FakeNotification {
    static permission: NotificationPermission = 'default';
    static made: FakeNotification[] = [];
    static requestPermission = vi.fn(async () => {
      FakeNotification.permission = 'granted';
      return 'granted' as NotificationPermission;
    });
    onclick: (() => void) | null = null;
    onclose: (() => void) | null = null;
    constructor(
      readonly title: string,
      readonly options: NotificationOptions,
    ) {
      FakeNotification.made.push(this);
    }
    close() {}
  }

  it('asks only when the user presses "Turn on notifications", then shows silent ones whose click opens the event', async () => {
    vi.stubGlobal('Notification', FakeNotification);
    mockApi({ 'GET events/7': { body: makeEvent({ id: 7, title: 'Dentist' }) } });
    useAlerts.setState({ permission: 'default' });
    render(<ReminderBanners now={() => NOW} />);
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();
    act(() => useAlerts.getState().receive({ type: 'due', reminder: due() }));
    expect(FakeNotification.made).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Turn on notifications' }));
    await waitFor(() => expect(useAlerts.getState().permission).toBe('granted'));
    expect(screen.queryByRole('button', { name: 'Turn on notifications' })).toBeNull();
    act(() => useAlerts.getState().receive({ type: 'due', reminder: due({ key: 'k9' }) }));
    expect(FakeNotification.made).toHaveLength(1);
    const n = FakeNotification.made[0];
    expect(n.title).toBe('Dentist & check-up');
    expect(n.options).toMatchObject({ tag: 'k9', silent: true });
    n.onclick?.();
    await waitFor(() => expect(useUi.getState().details?.id).toBe(7));
  });

  it('sound stays off until Settings turns it on (or the alarm is an AUDIO one); then the notification rings and a chime plays', () => {
    FakeNotification.made = [];
    vi.stubGlobal('Notification', FakeNotification);
    const tones: number[] = [];
    class FakeAudio {
      currentTime = 0;
      destination = {};
      createOscillator() {
        const osc = { frequency: { value: 0 }, connect: (g: unknown) => g, start: () => tones.push(osc.frequency.value), stop() {} };
        return osc;
      }
      createGain() {
        return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: () => ({}) };
      }
      async close() {}
    }
    vi.stubGlobal('AudioContext', FakeAudio);
    useAlerts.setState({ permission: 'granted' });
    render(<ReminderBanners now={() => NOW} />);
    act(() => useAlerts.getState().receive({ type: 'due', reminder: due({ key: 'quiet' }) }));
    expect(FakeNotification.made.at(-1)!.options.silent).toBe(true);
    expect(tones).toEqual([]);
    act(() => useAlerts.getState().receive({ type: 'due', reminder: due({ key: 'audio', action: 'audio' }) }));
    expect(FakeNotification.made.at(-1)!.options.silent).toBe(false);
    expect(tones).toHaveLength(2);
    useCalendarSettings.setState({ settings: { ...useCalendarSettings.getState().settings, reminder_sound: true } });
    try {
      act(() => useAlerts.getState().receive({ type: 'due', reminder: due({ key: 'loud' }) }));
      expect(FakeNotification.made.at(-1)!.options.silent).toBe(false);
      expect(tones).toHaveLength(4);
    } finally {
      useCalendarSettings.setState({ settings: { ...useCalendarSettings.getState().settings, reminder_sound: false } });
    }
  });
});
