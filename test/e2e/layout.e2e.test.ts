/**
 * Fits any window (issue #15, item 9): at 420 px the page never scrolls sideways, the sidebar is a
 * drawer behind "Menu" and the week shows fewer days; at half a 1366 screen the calendar gets the
 * whole width. Also takes the screenshots (light and dark, 1366×768, 683×768, 420×800) into
 * test/e2e/screenshots/ for a person to look at.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBrowserSuites } from './browser';
import { e2eSuite, BROWSER_ZONE, SHOTS } from './harness';

const SIZES = [
  { name: '1366', width: 1366, height: 768 },
  { name: '683', width: 683, height: 768 },
  { name: '420', width: 420, height: 800 },
] as const;

describe.skipIf(!runBrowserSuites)('layout at any width (e2e)', () => {
  const s = e2eSuite({ viewport: { width: 1366, height: 768 } });
  const event = (title: string) => s.page.getByRole('button', { name: new RegExp(title) });

  async function shoot(name: string) {
    const dismiss = s.page.getByRole('button', { name: 'Dismiss' });
    for (let i = 0; i < 8 && (await dismiss.count()) > 0; i++) await dismiss.first().click({ timeout: 1000 }).catch(() => {});
    for (const scheme of ['light', 'dark'] as const) {
      await s.page.emulateMedia({ colorScheme: scheme });
      await s.page.waitForTimeout(120);
      await s.page.screenshot({ path: join(SHOTS, `${name}-${scheme}.png`) });
    }
    await s.page.emulateMedia({ colorScheme: 'light' });
  }

  /** How far the page and the main column can scroll sideways (0: not at all). */
  const sideways = () =>
    s.page.evaluate<number>(
      `Math.max(document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth, (document.querySelector('.main')?.scrollWidth ?? 0) - (document.querySelector('.main')?.clientWidth ?? 0))`,
    );

  it('seeds a lived-in week', async () => {
    const venue = await s.api('venues', { method: 'POST', body: { venue: 'Town Hall', address: '1 Main St', city: 'Springfield', country: 'United States', geo_lat: 39.8, geo_lng: -89.64 } });
    const seed = [
      { title: 'Quarterly planning with the whole team', start_date: '2031-03-11 10:00:00', end_date: '2031-03-11 12:00:00', categories: ['Work'] },
      { title: 'Dentist', start_date: '2031-03-12 15:00:00', end_date: '2031-03-12 16:00:00', categories: ['Family'] },
      { title: 'Standup', start_date: '2031-03-12 09:00:00', end_date: '2031-03-12 09:30:00', categories: ['Work'] },
      { title: 'Spring concert', start_date: '2031-03-13 20:00:00', end_date: '2031-03-13 22:30:00', categories: ['Family'], venue: venue.json.id, description: '<p><b>Bring</b> a chair.</p>' },
      { title: 'Team offsite', start_date: '2031-03-17', end_date: '2031-03-19', all_day: true, categories: ['Work'] },
      { title: 'Picnic', start_date: '2031-03-15 12:00:00', end_date: '2031-03-15 15:00:00' },
    ];
    for (const body of seed) expect((await s.api('events', { method: 'POST', body: { timezone: BROWSER_ZONE, ...body } })).status).toBe(201);
  });

  for (const size of SIZES) {
    it(`at ${size.width}×${size.height}: no sideways scroll; month, week, details, search and editor pictures`, async () => {
      await s.page.setViewportSize({ width: size.width, height: size.height });
      await s.page.reload();
      await s.page.getByRole('button', { name: 'Today', exact: true }).waitFor();
      await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
      await s.page.getByRole('button', { name: 'Month', exact: true }).click();
      await event('Dentist').waitFor();
      expect(await sideways()).toBe(0);
      await shoot(`${size.name}-month`);

      await s.page.getByRole('button', { name: 'Week', exact: true }).click();
      await event('Dentist').waitFor();
      expect(await sideways()).toBe(0);
      await shoot(`${size.name}-week`);
      await event('Dentist').click();
      await s.page.getByRole('dialog', { name: 'Dentist' }).waitFor();
      await shoot(`${size.name}-details`);
      await s.page.keyboard.press('Escape');

      await s.page.getByRole('button', { name: 'Month', exact: true }).click();
      await s.page.getByRole('searchbox', { name: 'Search events' }).fill('concert');
      await s.page.getByRole('region', { name: 'Search results for “concert”' }).getByText('One event matches').waitFor();
      expect(await sideways()).toBe(0);
      await shoot(`${size.name}-search`);
      await s.page.getByRole('searchbox', { name: 'Search events' }).fill('');
      await s.page.getByRole('region', { name: /^Search results/ }).waitFor({ state: 'detached' });

      // Through the card: on a narrow window it is a bottom sheet over the event, so no double-click.
      await event('Spring concert').click();
      await s.page.getByRole('dialog', { name: 'Spring concert' }).getByRole('button', { name: 'Edit', exact: true }).click();
      await s.page.getByRole('dialog', { name: 'Edit event' }).waitFor();
      expect(await sideways()).toBe(0);
      await shoot(`${size.name}-editor`);
      await s.page.keyboard.press('Escape');
      await s.page.getByRole('dialog').waitFor({ state: 'detached' });
    });
  }

  it('jumps to a date from the mini month, by mouse and by keyboard', async () => {
    await s.page.setViewportSize({ width: 1366, height: 768 });
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
    await s.page.getByRole('button', { name: 'Month', exact: true }).click();
    const mini = s.page.getByRole('region', { name: 'Go to a date' });
    await mini.getByText('March 2031').waitFor();
    expect(await mini.getByRole('button', { name: 'March 12, 2031' }).getAttribute('aria-pressed')).toBe('true');
    await mini.getByRole('button', { name: 'Later' }).click();
    await mini.getByRole('button', { name: 'April 15, 2031' }).click();
    await s.page.getByRole('heading', { name: 'April 2031', exact: true }).waitFor();
    expect(await s.page.getByLabel('Go to date', { exact: true }).inputValue()).toBe('04/15/2031');
    await mini.getByRole('button', { name: 'April 15, 2031' }).focus();
    await s.page.keyboard.press('ArrowDown');
    await s.page.keyboard.press('ArrowDown');
    await s.page.keyboard.press('ArrowRight');
    await s.page.keyboard.press('Enter');
    await expect.poll(() => s.page.getByLabel('Go to date', { exact: true }).inputValue()).toBe('04/30/2031');
  });

  it('shows the whole year in the year view', async () => {
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
    await s.page.getByRole('button', { name: 'Year', exact: true }).click();
    await s.page.getByRole('heading', { name: '2031', exact: true }).waitFor();
    await event('Team offsite').first().waitFor();
    expect(await sideways()).toBe(0);
    await shoot('1366-year');
    await s.page.getByRole('button', { name: 'Next', exact: true }).click();
    await s.page.getByRole('heading', { name: '2032', exact: true }).waitFor();
    await s.page.keyboard.press('m');
    await s.page.getByRole('button', { name: 'Month', pressed: true }).waitFor();
  });

  it('at 420 px puts the sidebar in a drawer behind "Menu" and shows three days a week', async () => {
    await s.page.setViewportSize({ width: 420, height: 800 });
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
    const sidebar = s.page.getByRole('complementary', { name: 'Sidebar' });
    expect(await sidebar.isVisible()).toBe(false);
    const menu = s.page.getByRole('button', { name: 'Menu', exact: true });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    await sidebar.waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    expect(await sideways()).toBe(0);
    await shoot('420-drawer');
    await sidebar.getByRole('button', { name: 'Venues' }).click();
    await s.page.getByRole('heading', { name: 'Venues' }).waitFor();
    await sidebar.waitFor({ state: 'hidden' });
    expect(await sideways()).toBe(0);
    await menu.click();
    await s.page.keyboard.press('Escape');
    await sidebar.waitFor({ state: 'hidden' });
    await menu.click();
    await sidebar.getByRole('button', { name: 'Calendar', exact: true }).click();

    await s.page.getByRole('button', { name: 'Week', exact: true }).click();
    await s.page.getByRole('heading', { name: /^Mar 12 – 14, 2031$/ }).waitFor();
    await s.page.getByRole('button', { name: 'Next', exact: true }).click();
    await s.page.getByRole('heading', { name: /^Mar 15 – 17, 2031$/ }).waitFor();

    // Back at full width: the sidebar is a column again and the week has seven days.
    await s.page.setViewportSize({ width: 1366, height: 768 });
    await sidebar.waitFor();
    expect(await menu.count()).toBe(0);
    await s.page.getByRole('heading', { name: /^Mar 9 – 15, 2031$/ }).waitFor();
    expect(s.pageErrors).toEqual([]);
  });
});
