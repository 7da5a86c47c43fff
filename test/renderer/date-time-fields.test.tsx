// @vitest-environment happy-dom
/**
 * Issue 27 §5.4: date and time fields follow the interface language and the Settings' clock, not
 * the computer's browser (a Brazilian with the 24-hour clock saw "03:30 PM" and MM/DD/YYYY, and
 * "3/12" in Go to date opened 12 March).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import i18n from '../../renderer/src/i18n';
import { EventEditor } from '../../renderer/src/editor/EventEditor';
import { CalendarToolbar } from '../../renderer/src/calendar/CalendarToolbar';
import { DEFAULT_SETTINGS, useCalendarSettings } from '../../renderer/src/state/calendarSettings';
import { useCalendar } from '../../renderer/src/state/calendar';
import { useSettings } from '../../renderer/src/state/settings';
import { useUi } from '../../renderer/src/state/ui';
import { formatTimeText, parseDateText, parseTimeText } from '../../renderer/src/lib/dateText';
import type { TimeFormat } from '@shared/schema/settings';
import type { Language } from '@shared/i18n/languages';

async function as(language: Language, time_format: TimeFormat) {
  useSettings.setState({ uiLanguage: language, contentLanguage: language });
  await i18n.changeLanguage(language);
  useCalendarSettings.setState({ settings: { ...DEFAULT_SETTINGS, time_format } });
}
beforeEach(() => as('en', 'language'));
afterEach(cleanup);

const draft = { start_date: '2031-12-03 15:30:00', end_date: '2031-12-03 16:45:00', all_day: false, timezone: 'UTC' };
const openEditor = () => {
  useUi.setState({ editor: { kind: 'create', draft } });
  render(<EventEditor target={{ kind: 'create', draft }} />);
  return screen.getByRole('dialog');
};
const value = (el: HTMLElement) => (el as HTMLInputElement).value;

describe('date and time fields', () => {
  it('show the time on the chosen clock: 15:30 with 24 hours in English, 3:30 PM with 12 in Portuguese', async () => {
    await as('en', '24h');
    let dialog = openEditor();
    expect(value(within(dialog).getByLabelText('Start time'))).toBe('15:30');
    expect(value(within(dialog).getByLabelText('End time'))).toBe('16:45');
    cleanup();
    await as('pt-br', '12h');
    dialog = openEditor();
    expect(value(within(dialog).getByLabelText('Hora de Início'))).toBe('3:30\u00a0PM');
  });

  it('show the date in the language order: 03/12/2031 in Portuguese and Spanish, 12/03/2031 in English', async () => {
    for (const [lang, label, shown] of [
      ['pt-br', 'Início', '03/12/2031'],
      ['es', 'Inicio', '03/12/2031'],
      ['en', 'Start', '12/03/2031'],
    ] as const) {
      await as(lang, '24h');
      const dialog = openEditor();
      expect(value(within(dialog).getByLabelText(label, { exact: true }))).toBe(shown);
      cleanup();
    }
  });

  it('read what is typed in the language order, and a 24-hour time typed in a 12-hour field', async () => {
    await as('pt-br', '24h');
    const dialog = openEditor();
    const start = within(dialog).getByLabelText('Início', { exact: true });
    fireEvent.focus(start);
    fireEvent.change(start, { target: { value: '04/12/2031' } });
    fireEvent.blur(start);
    expect(value(start)).toBe('04/12/2031');
    // The end moved with the start (same length): the form took 4 December.
    expect(value(within(dialog).getByLabelText('Fim', { exact: true }))).toBe('04/12/2031');
    const time = within(dialog).getByLabelText('Hora de Início');
    fireEvent.focus(time);
    fireEvent.change(time, { target: { value: '9h' } });
    fireEvent.blur(time);
    expect(value(time)).toBe('09:00');
  });

  it('"3/12" in Go to date opens 3 December for a Brazilian, 12 March for an American', async () => {
    const year = new Date().getFullYear();
    for (const [lang, label, day] of [
      ['pt-br', 'Ir para a data', `${year}-12-03`],
      ['en', 'Go to date', `${year}-03-12`],
    ] as const) {
      await as(lang, 'language');
      useCalendar.setState({ date: '2031-06-01', view: 'month' });
      render(<CalendarToolbar />);
      const field = screen.getByLabelText(label);
      fireEvent.focus(field);
      fireEvent.change(field, { target: { value: '3/12' } });
      fireEvent.keyDown(field, { key: 'Enter' });
      expect(useCalendar.getState().date).toBe(day);
      cleanup();
    }
  });
});

describe('dateText', () => {
  it('reads and refuses dates', () => {
    expect(parseDateText('3/12/2031', 'pt-BR')).toBe('2031-12-03');
    expect(parseDateText('3.12.31', 'es', { year: 2026 })).toBe('2031-12-03');
    expect(parseDateText('31/02/2031', 'pt-BR')).toBeNull();
    expect(parseDateText('3/12', 'pt-BR', { complete: true })).toBeNull();
    expect(parseDateText('hello', 'en')).toBeNull();
  });
  it('reads times as people type them', () => {
    expect(parseTimeText('3:30 pm')).toBe('15:30');
    expect(parseTimeText('3pm')).toBe('15:00');
    expect(parseTimeText('12 a.m.')).toBe('00:00');
    expect(parseTimeText('15h30')).toBe('15:30');
    expect(parseTimeText('1530')).toBe('15:30');
    expect(parseTimeText('25:00')).toBeNull();
    expect(parseTimeText('3', { complete: true })).toBeNull();
    expect(parseTimeText('3:30 p', { complete: true })).toBe('15:30');
    expect(formatTimeText('00:05', 'en-u-hc-h12')).toBe('12:05\u00a0AM');
    expect(formatTimeText('00:05', 'en-u-hc-h23')).toBe('00:05');
  });
});
