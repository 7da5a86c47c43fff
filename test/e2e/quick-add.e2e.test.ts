/**
 * Quick add in the calendar (issue 27 §1): the button and the `q` key open a field named
 * "Quick add" that shows what it read as it is typed; Enter saves that very reading, and "More
 * options" carries it into the editor. The page's clock is fixed at Thursday 2027-03-25 10:00 in
 * São Paulo (the browser's zone), so "tomorrow" and "1pm" are known days and times.
 */
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runBrowserSuites } from './browser';
import { BROWSER_ZONE, e2eSuite, SHOTS } from './harness';

const NOW = new Date('2027-03-25T13:00:00Z'); // 10:00 in São Paulo
/** Pictures of the preview for people to look at (issue 27 asks for them): ALMANAC_SHOTS=DIR puts them elsewhere. */
const PICTURES = process.env.ALMANAC_SHOTS || SHOTS;

describe.skipIf(!runBrowserSuites)('quick add (e2e)', () => {
  const s = e2eSuite();
  const dialog = () => s.page.getByRole('dialog', { name: 'Quick add' });
  const field = () => dialog().getByRole('textbox', { name: 'Quick add' });
  const part = (name: string) => dialog().locator(`[data-part="${name}"] dd`);
  /** A part's text, Intl's narrow spaces ("1:00\u202fPM") written as plain ones. */
  const said = async (name: string) => (await part(name).innerText()).replace(/\s+/g, ' ');

  async function reload(today = 'Today') {
    await s.page.reload();
    await s.page.getByRole('button', { name: today, exact: true }).waitFor();
  }

  beforeAll(async () => {
    expect((await s.api('venues', { method: 'POST', body: { venue: 'Luso' } })).status).toBe(201);
    await s.page.clock.setFixedTime(NOW);
    await reload();
  });

  it('is in the toolbar and on the q key, listed with the shortcuts', async () => {
    await s.page.getByRole('toolbar').getByRole('button', { name: 'Quick add' }).click();
    await field().waitFor();
    await s.page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    await s.page.keyboard.press('?');
    const shortcuts = s.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(await shortcuts.innerText()).toMatch(/Q\s+Quick add/);
    await s.page.keyboard.press('Escape');
    await shortcuts.waitFor({ state: 'detached' });
    await s.page.keyboard.press('q');
    await field().waitFor();
    expect(await field().evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await s.page.keyboard.press('Escape');
  });

  it('shows what it read as it is typed, and Enter saves exactly that', async () => {
    await s.page.keyboard.press('q');
    await field().pressSequentially('Lunch with Ana tomorrow 1pm at Luso #work remind me 30 minutes before', { delay: 5 });
    await expect.poll(() => said('title')).toBe('Lunch with Ana');
    expect(await said('when')).toBe('Friday, March 26, 2027 · 1:00 PM – 2:00 PM');
    expect(await said('length')).toBe('1 hour');
    expect(await said('venue')).toBe('Luso');
    expect(await said('categories')).toBe('work');
    expect(await said('reminders')).toMatch(/30 minutes before/);
    expect(await said('calendar')).not.toBe('');
    await shots('quick-add-preview');

    await s.page.keyboard.press('Enter');
    await dialog().waitFor({ state: 'detached' });
    const [saved] = await s.eventsMatching('Lunch with Ana');
    expect([saved.start_date, saved.end_date, saved.venue.venue, saved.categories.map((c: { name: string }) => c.name), saved.reminders]).toEqual([
      '2027-03-26 13:00:00',
      '2027-03-26 14:00:00',
      'Luso',
      ['work'],
      [{ action: 'display', trigger: '-PT30M' }],
    ]);
    await s.page.getByRole('button', { name: /Lunch with Ana/ }).first().waitFor();
  });

  it('saves the day the preview showed even when the clock passes its time before Enter', async () => {
    await s.page.clock.setFixedTime(new Date('2027-03-25T13:59:00Z')); // 10:59
    await s.page.keyboard.press('q');
    await field().fill('Call the bank 11am');
    await expect.poll(() => said('when')).toBe('Thursday, March 25, 2027 · 11:00 AM – 12:00 PM');
    // Read again now, "11am" would be tomorrow's: the saved event must be the one shown.
    await s.page.clock.setFixedTime(new Date('2027-03-25T14:01:00Z'));
    await s.page.keyboard.press('Enter');
    await dialog().waitFor({ state: 'detached' });
    const [saved] = await s.eventsMatching('Call the bank');
    expect(saved.start_date).toBe('2027-03-25 11:00:00');
    await s.page.clock.setFixedTime(NOW);
  });

  it('says what is missing and saves nothing without a day or a title', async () => {
    await s.page.keyboard.press('q');
    await field().fill('Buy milk');
    await expect.poll(() => said('when')).toBe('No day or time yet');
    await s.page.keyboard.press('Enter');
    expect(await dialog().getByRole('alert').innerText()).toMatch(/Say when/);
    await field().fill('tomorrow 3pm');
    await expect.poll(() => said('title')).toBe('No title yet');
    await s.page.keyboard.press('Enter');
    expect(await dialog().getByRole('alert').innerText()).toMatch(/Say what/);
    await s.page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect(await s.eventsMatching('milk')).toEqual([]);
  });

  it('uses the 24-hour clock of the Settings, and More options opens the editor filled in', async () => {
    expect((await s.api('settings', { method: 'PATCH', body: { time_format: '24h' } })).status).toBe(200);
    // Put back even when a check fails: the next tests read times on the language's clock.
    onTestFinished(async () => void (await s.api('settings', { method: 'PATCH', body: { time_format: 'language' } })));
    await reload();
    await s.page.keyboard.press('q');
    await field().fill('Standup every weekday 9:15 at Luso #team');
    await expect.poll(() => said('when')).toBe('Friday, March 26, 2027 · 09:15 – 10:15');
    expect(await said('repeat')).toMatch(/Monday/);
    await shots('quick-add-series-24h');
    await dialog().getByRole('button', { name: 'More options' }).click();
    const editor = s.page.getByRole('dialog', { name: 'New event' });
    await editor.waitFor();
    expect(await editor.getByLabel('Title', { exact: true }).inputValue()).toBe('Standup');
    // Date fields are typed and shown in the language's order (English: month/day/year).
    expect(await editor.getByLabel('Start', { exact: true }).inputValue()).toBe('03/26/2027');
    expect(await editor.getByLabel('Start time', { exact: true }).inputValue()).toBe('09:15');
    expect(await editor.innerText()).toMatch(/Luso/);
    expect(await editor.innerText()).toMatch(/team/);
    await editor.getByRole('button', { name: 'Save', exact: true }).click();
    await editor.waitFor({ state: 'detached' });
    const [saved] = await s.eventsMatching('Standup');
    expect([saved.start_date, saved.recurrence?.rules, saved.venue.venue, saved.categories.map((c: { name: string }) => c.name)]).toEqual([
      '2027-03-26 09:15:00',
      ['FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'],
      'Luso',
      ['team'],
    ]);
    expect((await s.api('settings', { method: 'PATCH', body: { time_format: 'language' } })).status).toBe(200);
  });

  it('reads and answers in the interface language, with a venue of the records language', async () => {
    await s.page.getByLabel('Interface language', { exact: true }).selectOption('pt-br');
    await s.page.getByLabel('Idioma dos registros', { exact: true }).selectOption('pt-br');
    expect((await s.api('venues', { method: 'POST', body: { venue: 'Sala Luso' }, lang: 'pt-br' })).status).toBe(201);
    await reload('Hoje');
    await s.page.keyboard.press('q');
    const pt = s.page.getByRole('dialog', { name: 'Adição rápida' });
    await pt.getByRole('textbox', { name: 'Adição rápida' }).fill('Almoço com Ana sexta que vem das 13h às 14h30 na Sala Luso lembrar 10 minutos antes');
    const ptSaid = async (name: string) => (await pt.locator(`[data-part="${name}"] dd`).innerText()).replace(/\s+/g, ' ');
    await expect.poll(() => ptSaid('when')).toBe('sexta-feira, 26 de março de 2027 · 13:00 – 14:30');
    expect(await ptSaid('title')).toBe('Almoço com Ana');
    expect(await ptSaid('length')).toBe('1 hora 30 minutos');
    expect(await ptSaid('venue')).toBe('Sala Luso');
    expect(await ptSaid('reminders')).toMatch(/10 minutos antes/);
    expect(await ptSaid('calendar')).toBe('Neste computador');
    await shots('quick-add-preview-pt-br');
    await s.page.keyboard.press('Enter');
    await pt.waitFor({ state: 'detached' });
    const [saved] = await s.eventsMatching('Almoço', 'pt-br');
    expect([saved.title, saved.start_date, saved.end_date, saved.venue.venue]).toEqual(['Almoço com Ana', '2027-03-26 13:00:00', '2027-03-26 14:30:00', 'Sala Luso']);
    const created = s.page.locator('.toast', { hasText: 'Almoço com Ana' });
    await created.locator('.toast-close').click();
    await created.waitFor({ state: 'detached' });
    await s.page.getByLabel('Idioma da interface', { exact: true }).selectOption('en');
    await s.page.getByLabel('Records language', { exact: true }).selectOption('en');
    await s.page.getByRole('button', { name: 'Today', exact: true }).waitFor();
    // Toasts would sit in the next pictures.
    const toast = s.page.locator('.toast', { hasText: 'Showing English records' });
    await toast.waitFor();
    await toast.locator('.toast-close').click();
    await toast.waitFor({ state: 'detached' });
  });

  it('warns in the preview when another event holds the venue then, and still saves', async () => {
    const venue = (await s.api('venues?search=Luso&i18n_language=en')).json.venues.find((v: { venue: string }) => v.venue === 'Luso');
    const recital = await s.api('events', { method: 'POST', body: { title: 'Recital', start_date: '2027-03-29 17:30:00', end_date: '2027-03-29 19:00:00', timezone: BROWSER_ZONE, venue: venue.id } });
    expect(recital.status).toBe(201);
    await s.page.keyboard.press('q');
    await field().fill('Rehearsal monday 6pm at Luso');
    const warning = dialog().getByTestId('conflict-warning');
    await warning.waitFor();
    expect((await warning.innerText()).replace(/\s+/g, ' ')).toMatch(/Luso is booked 5:30 PM–7:00 PM by Recital/);
    await shots('quick-add-double-booking');
    // An hour later nobody holds it: the warning goes.
    await field().fill('Rehearsal monday 7pm at Luso');
    await warning.waitFor({ state: 'detached' });
    await field().fill('Rehearsal monday 6pm at Luso');
    await warning.waitFor();
    await s.page.keyboard.press('Enter');
    await dialog().waitFor({ state: 'detached' });
    const [saved] = await s.eventsMatching('Rehearsal');
    expect([saved.start_date, saved.venue.venue]).toEqual(['2027-03-29 18:00:00', 'Luso']);
  });

  /** The open dialog, light and dark, at 1366 and 420 px wide. */
  async function shots(name: string) {
    mkdirSync(PICTURES, { recursive: true });
    const size = s.page.viewportSize()!;
    for (const width of [1366, 420]) {
      await s.page.setViewportSize({ width, height: width > 1000 ? 768 : 800 });
      for (const scheme of ['light', 'dark'] as const) {
        await s.page.emulateMedia({ colorScheme: scheme });
        await s.page.screenshot({ path: join(PICTURES, `${name}-${width}-${scheme}.png`) });
      }
    }
    await s.page.emulateMedia({ colorScheme: 'light' });
    await s.page.setViewportSize(size);
  }
});
