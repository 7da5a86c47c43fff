// @vitest-environment happy-dom
/**
 * A day's list paints each event's dot in its calendar's colour: recolouring the calendar redraws
 * it at once, as the calendar views do (the list itself is not fetched again).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import '../../renderer/src/i18n';
import type { CalendarJson } from '@shared/schema/accounts';
import { DayList } from '../../renderer/src/calendar/DayList';
import { useCalendars } from '../../renderer/src/state/calendars';
import { useEvents } from '../../renderer/src/state/events';
import { makeEvent } from './helpers';

afterEach(cleanup);

const cal = (id: number, color: string | null): CalendarJson => ({ id, name: `C${id}`, color, visible: true, account: 'Home', account_id: 1, synced: true, read_only: false, subscription: null });

describe("a day's list", () => {
  it('redraws an event in its calendar’s new colour', () => {
    const e = makeEvent({ id: 5, title: 'Standup', calendar: 2, categories: [], start_date: '2031-03-12 09:00:00', end_date: '2031-03-12 09:30:00', utc_start_date: '2031-03-12 09:00:00', utc_end_date: '2031-03-12 09:30:00' });
    useCalendars.setState({ calendars: [cal(2, '#1badf8')] });
    useEvents.setState({ events: [e] });
    render(<DayList day="2031-03-12" />);
    const dot = () => (screen.getByRole('button', { name: /Standup/ }).querySelector('.ev-dot') as HTMLElement).style.background;
    expect(dot()).toBe('#1badf8');
    act(() => useCalendars.setState({ calendars: [cal(2, '#ff2968')] }));
    expect(dot()).toBe('#ff2968');
  });
});
