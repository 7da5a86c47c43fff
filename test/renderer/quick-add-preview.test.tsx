// @vitest-environment happy-dom
/**
 * Quick add's preview says the length a sentence gives, in the interface language, with the words
 * the notifications use for an amount of time ("1 hour 30 minutes", "1 hora 30 minutos").
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from '../../renderer/src/i18n';
import type { Language } from '@shared/i18n/languages';
import { QuickAdd } from '../../renderer/src/calendar/QuickAdd';
import { useCalendars } from '../../renderer/src/state/calendars';
import { useLookups } from '../../renderer/src/state/lookups';
import { useSettings } from '../../renderer/src/state/settings';

beforeEach(() => {
  useCalendars.setState({ calendars: [], accounts: [], loaded: true });
  useLookups.setState({ venues: [] });
});
afterEach(cleanup);

async function preview(lang: Language, sentence: string): Promise<string | null | undefined> {
  useSettings.setState({ uiLanguage: lang, contentLanguage: lang });
  await i18n.changeLanguage(lang);
  render(<QuickAdd />);
  fireEvent.change(screen.getByRole('textbox'), { target: { value: sentence } });
  const row = document.querySelector('[data-part="length"] dd');
  const text = row?.textContent;
  cleanup();
  return text;
}

describe('the length quick add read', () => {
  it.each([
    ['en', 'Yoga tomorrow 6pm for 90 minutes', '1 hour 30 minutes'],
    ['en', 'Yoga tomorrow 6pm for 1 hour', '1 hour'],
    ['en', 'Yoga tomorrow 6pm for 45 minutes', '45 minutes'],
    ['pt-br', 'Yoga amanhã 18h por 90 minutos', '1 hora 30 minutos'],
    ['pt-br', 'Yoga amanhã 18h por 2 horas', '2 horas'],
    ['es', 'Yoga mañana 18h durante 90 minutos', '1 hora 30 minutos'],
    ['es', 'Yoga mañana 18h durante 1 minuto', '1 minuto'],
  ] as const)('in %s, “%s” lasts %s', async (lang, sentence, words) => {
    expect(await preview(lang, sentence)).toBe(words);
  });
});
