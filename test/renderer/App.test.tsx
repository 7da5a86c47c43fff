// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../renderer/src/i18n';
import { App } from '../../renderer/src/App';
import { useCalendar } from '../../renderer/src/state/calendar';
import { useEvents } from '../../renderer/src/state/events';
import { useFilters } from '../../renderer/src/state/filters';
import { useSettings } from '../../renderer/src/state/settings';
import { useUi } from '../../renderer/src/state/ui';
import { listOf, makeEvent, makeTerm, mockApi } from './helpers';

beforeEach(async () => {
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
  useCalendar.setState({ view: 'month', date: '2031-03-12', range: null, title: '' });
  useFilters.getState().clear();
  useEvents.setState({ events: [], status: 'idle', query: null });
  useEvents.getState().invalidate();
  useUi.setState({ screen: 'calendar', editor: null, quickCreate: null, dayList: null });
});
afterEach(cleanup);

describe('App', () => {
  it('fetches only the visible range, in the records language, and refetches when a filter changes', async () => {
    const api = mockApi({
      'GET events': listOf('events', [makeEvent({ id: 1, title: 'Standup', featured: true })]),
      'GET categories': listOf('categories', [makeTerm(3, 'Work')]),
      'GET tags': listOf('tags', []),
      'GET venues': listOf('venues', []),
      'GET organizers': listOf('organizers', []),
    });
    render(<App />);
    for (const name of ['New event', 'Today', 'Previous', 'Next']) expect(screen.getByRole('button', { name })).toBeTruthy();
    await waitFor(() => expect(api.to('GET', 'events').length).toBeGreaterThan(0));
    const first = api.to('GET', 'events')[0].url.searchParams;
    expect(first.get('i18n_language')).toBe('en');
    expect(first.get('per_page')).toBe('50');
    // March 2031's grid runs Sun 23 Feb – Sat 5 Apr (to 6 Apr, exclusive), plus a day of margin each side.
    expect(first.get('ends_after')).toBe('2031-02-22 00:00:00');
    expect(first.get('starts_before')).toBe('2031-04-07 00:00:00');
    await waitFor(() => expect(useEvents.getState().events.map((e) => e.id)).toEqual([1]));

    fireEvent.click(await screen.findByRole('checkbox', { name: 'Work' }));
    await waitFor(() => expect(api.to('GET', 'events').some((c) => c.url.searchParams.get('categories') === '3')).toBe(true));

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(useCalendar.getState().date).toBe('2031-04-12');
    fireEvent.click(screen.getByRole('button', { name: 'Week' }));
    expect(useCalendar.getState().view).toBe('week');
    expect(screen.getByRole('button', { name: 'Week' }).getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'New event' }));
    const dialog = await screen.findByRole('dialog', { name: 'New event' });
    expect(within(dialog).getByRole('textbox', { name: 'Title' })).toBeTruthy();
  });

  it('says so when the events cannot be loaded, with the server’s words', async () => {
    mockApi({
      'GET events': { status: 401, body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } } },
      'GET categories': listOf('categories', []),
      'GET tags': listOf('tags', []),
      'GET venues': listOf('venues', []),
      'GET organizers': listOf('organizers', []),
    });
    render(<App />);
    const banner = await screen.findByText(/The events could not be loaded: Sorry, you are not allowed to do that\./);
    expect(banner.closest('[role="alert"]')).toBeTruthy();
  });
});
