// @vitest-environment happy-dom
/** Issue 27 §5.11: the details card of a repeating event says how it repeats, in three languages. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import i18n from '../../renderer/src/i18n';
import type { Language } from '@shared/i18n/languages';
import { EventDetails } from '../../renderer/src/calendar/EventDetails';
import { useSettings } from '../../renderer/src/state/settings';
import { makeEvent } from './helpers';

afterEach(cleanup);

async function card(language: Language, rules: string[]) {
  useSettings.setState({ uiLanguage: language, contentLanguage: language });
  await i18n.changeLanguage(language);
  // Monday 10 March 2031.
  const e = makeEvent({ id: 7, title: 'Class', start_date: '2031-03-10 10:00:00', end_date: '2031-03-10 11:00:00', recurrence: { rules, rdates: [], exdates: [] } });
  render(<EventDetails event={e} />);
  return screen.getByRole('dialog', { name: 'Class' }).textContent ?? '';
}

describe('the details card of a repeating event', () => {
  it.each([
    ['en', ['FREQ=WEEKLY;BYDAY=MO'], 'Every Monday'],
    ['en', ['FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20310601T235959Z'], 'Every Monday and Wednesday until June 1, 2031'],
    ['pt-br', ['FREQ=WEEKLY;BYDAY=MO'], 'Toda segunda-feira'],
    ['pt-br', ['FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20310601T235959Z'], 'Toda segunda-feira e quarta-feira até 1 de junho de 2031'],
    ['es', ['FREQ=WEEKLY;BYDAY=MO'], 'Cada lunes'],
    ['es', ['FREQ=DAILY;COUNT=5'], 'Todos los días, 5 veces'],
  ] as const)('%s %j → “%s”', async (language, rules, words) => {
    expect(await card(language, [...rules])).toContain(words);
  });

  it('says nothing of repeating for a single event', async () => {
    useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
    await i18n.changeLanguage('en');
    render(<EventDetails event={makeEvent({ id: 8, title: 'Once' })} />);
    expect(screen.getByRole('dialog', { name: 'Once' }).querySelector('.details-repeat')).toBeNull();
  });
});
