/**
 * Settings and category colours (issue #15, items 8 and 13), in Chromium by accessible names:
 * the "Settings" button opens a dialog named "Settings"; each change shows at once where it
 * applies and is checked through the API; a field in error blocks Save. Also the screenshots of
 * the dialog in light and dark at 1366×768 and 420×800 for a person to look at.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { runBrowserSuites } from './browser';
import { e2eSuite, BROWSER_ZONE, SHOTS } from './harness';
import { parseTimeText } from '../../renderer/src/lib/dateText';

/** The page's elements and globals, loosely typed: the tests are compiled without the DOM library. */
type Dom = any; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.skipIf(!runBrowserSuites)('settings (e2e)', () => {
  const s = e2eSuite({ viewport: { width: 1366, height: 768 } });
  const page = () => s.page;
  const dialog = () => s.page.getByRole('dialog', { name: 'Settings' });
  const settings = async () => (await s.api('settings')).json;

  async function openSettings() {
    await s.page.getByRole('button', { name: 'Settings', exact: true }).click();
    await dialog().waitFor();
  }

  async function save() {
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    await dialog().waitFor({ state: 'detached' });
  }

  async function gotoDate(date: string, view: 'Month' | 'Week' | 'Day') {
    await s.page.getByLabel('Go to date', { exact: true }).fill(date);
    await s.page.getByRole('button', { name: view, exact: true }).click();
  }

  it('seeds an evening event', async () => {
    const res = await s.api('events', { method: 'POST', body: { title: 'Evening class', start_date: '2031-03-12 20:00:00', end_date: '2031-03-12 21:30:00', timezone: BROWSER_ZONE, categories: ['Work'] } });
    expect(res.status).toBe(201);
    await s.page.reload();
    await s.page.getByRole('button', { name: 'Today', exact: true }).waitFor();
  });

  it('week start and 24-hour clock apply at once in month, week, mini month and details card', async () => {
    await gotoDate('2031-03-12', 'Month');
    const month = s.page.getByRole('table', { name: 'March 2031' });
    await expect.poll(() => month.getByRole('columnheader').first().textContent()).toBe('Sun');
    await month.getByRole('button', { name: /^8p Evening class/ }).waitFor();

    await openSettings();
    await dialog().getByLabel('Week starts on', { exact: true }).selectOption('monday');
    await dialog().getByLabel('Clock', { exact: true }).selectOption('24h');
    await save();
    expect(await settings()).toMatchObject({ week_starts_on: 'monday', time_format: '24h' });

    await expect.poll(() => month.getByRole('columnheader').first().textContent()).toBe('Mon');
    await month.getByRole('button', { name: /^20:00 Evening class/ }).waitFor();
    // The mini month's first column follows too (its weekdays are one letter: M, not S).
    const mini = s.page.getByRole('grid', { name: 'March 2031' });
    await expect.poll(() => mini.getByRole('columnheader').first().textContent()).toBe('M');

    await month.getByRole('button', { name: /Evening class/ }).click();
    const card = s.page.getByRole('dialog', { name: 'Evening class' });
    await expect.poll(() => card.textContent()).toMatch(/20:00 – 21:30/);
    expect(await card.textContent()).not.toMatch(/PM/);
    await s.page.keyboard.press('Escape');

    await gotoDate('2031-03-12', 'Week');
    const weekEvent = s.page.getByRole('button', { name: /Evening class/ });
    await expect.poll(() => weekEvent.textContent()).toMatch(/20:00 - 21:30|20:00 – 21:30/);
    expect(await weekEvent.textContent()).not.toMatch(/pm|PM/);
    // The week's own day headers (the mini month's are single letters).
    const firstDayHeader = await s.page.getByRole('columnheader').filter({ hasText: /\d/ }).first().textContent();
    expect(firstDayHeader).toMatch(/Mon/);

    // The agenda and the search results say it the same way.
    await gotoDate('2031-03-12', 'Week');
    await s.page.getByRole('button', { name: 'Agenda', exact: true }).click();
    await s.page.getByText(/Evening class/).first().waitFor();
    await s.page.getByText(/^20:00/).first().waitFor();
    expect(await s.page.getByText(/8:00\s?pm/i).count()).toBe(0);
    await s.page.getByRole('searchbox', { name: 'Search events' }).fill('Evening');
    const results = s.page.getByRole('button', { name: /Evening class/ }).first();
    await expect.poll(() => results.textContent()).toMatch(/20:00/);
    await s.page.getByRole('searchbox', { name: 'Search events' }).fill('');
    await gotoDate('2031-03-12', 'Week');

    // Back to 12 hours: "8:00 – 9:30" must not stand for the evening.
    await openSettings();
    await dialog().getByLabel('Clock', { exact: true }).selectOption('12h');
    await save();
    expect((await settings()).time_format).toBe('12h');
    await expect.poll(() => weekEvent.textContent()).toMatch(/8:00 – 9:30\s?pm/i);
  });

  it('week and day views open scrolled to the working hours; the default length is what new events get', async () => {
    await openSettings();
    await dialog().getByLabel('Clock', { exact: true }).selectOption('12h');
    await dialog().getByLabel('Working hours start', { exact: true }).fill('13:00');
    await dialog().getByLabel('Working hours end', { exact: true }).fill('19:00');
    await dialog().getByLabel('Default event length (minutes)', { exact: true }).fill('45');
    await save();
    expect(await settings()).toMatchObject({ work_start: '13:00', work_end: '19:00', default_event_minutes: 45 });

    await gotoDate('2031-03-20', 'Day');
    // Opened at 1 PM: the hours after it are on screen, those before it scrolled away.
    const label = (hour: RegExp) => s.page.getByText(hour).first();
    const onScreen = (hour: RegExp) =>
      // Whether the label is really on screen: not clipped away by the scrolled grid.
      label(hour).evaluate((el: Dom) => {
        const r = el.getBoundingClientRect();
        const hit = (globalThis as Dom).document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return !!hit && (el.contains(hit) || hit.contains(el));
      });
    await expect.poll(() => onScreen(/^2\s?pm$/i)).toBe(true);
    expect(await onScreen(/^11\s?am$/i)).toBe(false);

    // A click on a free hour makes a 45-minute event there.
    const three = (await label(/^3\s?pm$/i).boundingBox())!;
    await s.page.mouse.click(three.x + three.width + 200, three.y + three.height / 2 + 4);
    const quick = s.page.getByRole('dialog', { name: 'New event' });
    await quick.waitFor();
    await expect.poll(() => quick.textContent()).toMatch(/3:00\s?PM – 3:45\s?PM/i);
    await quick.getByLabel('Title', { exact: true }).fill('Short sync');
    await s.page.keyboard.press('Enter');
    await quick.waitFor({ state: 'detached' });
    const [sync] = await s.eventsMatching('Short sync');
    expect([sync.start_date, sync.end_date]).toEqual(['2031-03-20 15:00:00', '2031-03-20 15:45:00']);

    // The full editor's new event too.
    await s.page.getByRole('button', { name: 'New event', exact: true }).click();
    const editor = s.page.getByRole('dialog', { name: 'New event' });
    await editor.getByLabel('Title', { exact: true }).fill('Editor default');
    const start = await editor.getByLabel('Start time', { exact: true }).inputValue();
    const end = await editor.getByLabel('End time', { exact: true }).inputValue();
    const minutes = (t: string) => {
      const [h, m] = parseTimeText(t)!.split(':');
      return Number(h) * 60 + Number(m);
    };
    expect(minutes(end) - minutes(start)).toBe(45);
    await editor.getByRole('button', { name: 'Save', exact: true }).click();
    await editor.waitFor({ state: 'detached' });
    const [made] = await s.eventsMatching('Editor default');
    expect((Date.parse(`${made.utc_end_date}Z`) - Date.parse(`${made.utc_start_date}Z`)) / 60_000).toBe(45);
  });

  it('a field in error blocks Save and nothing is stored', async () => {
    const before = await settings();
    await openSettings();
    const length = dialog().getByLabel('Default event length (minutes)', { exact: true });
    await length.fill('2');
    await dialog().getByText('Must be a whole number of minutes from 5 to 1440', { exact: false }).waitFor();
    expect(await length.getAttribute('aria-invalid')).toBe('true');
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    await dialog().getByRole('alert').waitFor();
    expect(await dialog().isVisible()).toBe(true);

    await length.fill('30');
    await dialog().getByLabel('Working hours end', { exact: true }).fill('08:00');
    await dialog().getByText('The working day must end after it starts', { exact: false }).waitFor();
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    expect(await dialog().isVisible()).toBe(true);
    await dialog().getByLabel('Working hours end', { exact: true }).fill('19:00');

    const horizon = dialog().getByLabel('Repeat horizon (months)', { exact: true });
    await horizon.fill('500');
    await dialog().getByText('Must be a whole number of months from 3 to 120', { exact: false }).waitFor();
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    expect(await dialog().isVisible()).toBe(true);
    await horizon.fill('24');

    const zone = dialog().getByRole('combobox', { name: 'Time zone' });
    await zone.fill('New York');
    await dialog().getByLabel('Theme', { exact: true }).focus();
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    await dialog().getByText('Pick a time zone from the list', { exact: false }).first().waitFor();
    expect(await dialog().isVisible()).toBe(true);

    await dialog().getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog().waitFor({ state: 'detached' });
    expect(await settings()).toEqual(before);
  });

  it('explains the repeat horizon, and keeps the default reminders as lists', async () => {
    await openSettings();
    await dialog().getByText('How far ahead each repeating event', { exact: false }).waitFor();
    await dialog().getByLabel('Repeat horizon (months)', { exact: true }).fill('12');
    const timed = dialog().getByRole('group', { name: 'For new timed events' });
    await timed.getByRole('button', { name: 'Add reminder' }).click();
    await timed.getByLabel('Reminder 1: how long before').fill('30');
    await timed.getByRole('button', { name: 'Add reminder' }).click();
    await timed.getByLabel('Reminder 2: how long before').fill('1');
    await timed.getByLabel('Reminder 2: unit').selectOption('days');
    const allDay = dialog().getByRole('group', { name: 'For new all-day events' });
    await allDay.getByRole('button', { name: 'Add reminder' }).click();
    await allDay.getByLabel('Reminder 1: how long before').fill('15');
    await allDay.getByLabel('Reminder 1: unit').selectOption('hours');
    await save();
    expect(await settings()).toMatchObject({
      recurrence_horizon_months: 12,
      reminders_timed: [
        { action: 'display', trigger: '-PT30M' },
        { action: 'display', trigger: '-P1D' },
      ],
      reminders_all_day: [{ action: 'display', trigger: '-PT15H' }],
    });

    // Shown again as rows; one removed is removed for good.
    await openSettings();
    expect(await timed.getByLabel('Reminder 2: unit').inputValue()).toBe('days');
    await timed.getByRole('button', { name: 'Remove reminder 1' }).click();
    await save();
    expect((await settings()).reminders_timed).toEqual([{ action: 'display', trigger: '-P1D' }]);

    // A new event starts with them shown in its Notifications section, and saves what it showed.
    await s.page.getByRole('button', { name: 'New event', exact: true }).click();
    const editor = s.page.getByRole('dialog', { name: 'New event' });
    await editor.getByLabel('Title', { exact: true }).fill('With default reminder');
    const section = editor.getByRole('group', { name: 'Notifications' });
    await section.getByRole('combobox', { name: 'Notification 1' }).waitFor();
    expect(await section.getByRole('combobox', { name: 'Notification 2' }).count()).toBe(0);
    await editor.getByRole('button', { name: 'Save', exact: true }).click();
    await editor.waitFor({ state: 'detached' });
    const [made] = await s.eventsMatching('With default reminder');
    expect(made.reminders).toEqual([{ action: 'display', trigger: '-P1D' }]);
  });

  it('theme: dark and light apply at once, whatever the system says', async () => {
    const background = () => s.page.evaluate<string>('getComputedStyle(document.querySelector("main")).backgroundColor');
    const light = await background();
    await openSettings();
    await dialog().getByLabel('Theme', { exact: true }).selectOption('dark');
    await save();
    expect((await settings()).theme).toBe('dark');
    await expect.poll(background).not.toBe(light);
    const dark = await background();
    // The system asking for dark changes nothing once the theme is set to light.
    await s.page.emulateMedia({ colorScheme: 'dark' });
    await openSettings();
    await dialog().getByLabel('Theme', { exact: true }).selectOption('light');
    await save();
    await expect.poll(background).toBe(light);
    await openSettings();
    await dialog().getByLabel('Theme', { exact: true }).selectOption('system');
    await save();
    await expect.poll(background).toBe(dark);
    await s.page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(background).toBe(light);
  });

  it('screenshots of the dialog, light and dark, at 1366×768 and 420×800', async () => {
    for (const size of [
      { width: 1366, height: 768 },
      { width: 420, height: 800 },
    ]) {
      await s.page.setViewportSize(size);
      for (const scheme of ['light', 'dark'] as const) {
        await s.page.emulateMedia({ colorScheme: scheme });
        if (size.width < 600) await s.page.getByRole('button', { name: 'Menu', exact: true }).click();
        await openSettings();
        await s.page.waitForTimeout(150);
        await s.page.screenshot({ path: join(SHOTS, `settings-${size.width}-${scheme}.png`) });
        await dialog().getByRole('button', { name: 'Cancel', exact: true }).click();
        await dialog().waitFor({ state: 'detached' });
      }
    }
    await s.page.emulateMedia({ colorScheme: 'light' });
    await s.page.setViewportSize({ width: 1366, height: 768 });
    expect(s.pageErrors).toEqual([]);
  });

  it('category colour: picked on the Categories screen, kept in the record, shown in every view and the filters', async () => {
    await s.page.getByRole('button', { name: 'Categories', exact: true }).click();
    await s.page.getByRole('button', { name: 'Edit Work' }).click();
    const edit = s.page.getByRole('dialog', { name: 'Edit category' });
    await edit.getByLabel('Colour', { exact: true }).fill('#e11d48');
    await edit.getByRole('button', { name: 'Save', exact: true }).click();
    await edit.waitFor({ state: 'detached' });
    const { json } = await s.api('categories?hide_empty=false&search=Work');
    expect(json.categories[0].color).toBe('#e11d48');

    const rgb = 'rgb(225, 29, 72)';
    const colourOf = (el: Locator) => el.evaluate((e: Dom) => (globalThis as Dom).getComputedStyle(e).getPropertyValue('--fc-event-color').trim() as string);
    await s.page.getByRole('button', { name: 'Calendar', exact: true }).click();
    await gotoDate('2031-03-12', 'Month');
    const inMonth = s.page.getByRole('table', { name: 'March 2031' }).getByRole('button', { name: /Evening class/ });
    await expect.poll(() => colourOf(inMonth)).toMatch(/#e11d48|rgb\(225, 29, 72\)/);
    await gotoDate('2031-03-12', 'Week');
    const inWeek = s.page.getByRole('button', { name: /Evening class/ });
    // The time grid tints its boxes from the event colour; the colour itself is what it was given.
    await expect.poll(() => colourOf(inWeek)).toMatch(/#e11d48|rgb\(225, 29, 72\)/);
    await inWeek.click();
    const card = s.page.getByRole('dialog', { name: 'Evening class' });
    const chip = card.getByRole('list').getByRole('listitem').filter({ hasText: 'Work' });
    await expect.poll(() => chip.evaluate((e: Dom) => (globalThis as Dom).getComputedStyle(e.querySelector('.ev-dot')).backgroundColor as string)).toBe(rgb);
    await s.page.keyboard.press('Escape');
    const filter = s.page.getByRole('checkbox', { name: 'Work' });
    await expect.poll(() => filter.evaluate((e: Dom) => (globalThis as Dom).getComputedStyle(e.closest('label').querySelector('.swatch')).backgroundColor as string)).toBe(rgb);
    expect(s.pageErrors).toEqual([]);
  });
});
