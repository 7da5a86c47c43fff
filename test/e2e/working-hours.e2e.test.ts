/**
 * Week and day views open scrolled to the working hours (issue #15, item 8) at every width: at
 * half a 1366 screen the week's columns are narrow, their hour labels smaller and the slots
 * shorter, and the grid used to open an hour late with the 8:00 "Standup" hidden above the fold.
 * Changing the working hours in Settings scrolls the open week to the new start.
 */
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { runBrowserSuites } from './browser';
import { e2eSuite, BROWSER_ZONE } from './harness';

/** The page's elements and globals, loosely typed: the tests are compiled without the DOM library. */
type Dom = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const SIZES = [
  { width: 683, height: 768 },
  { width: 420, height: 800 },
] as const;

describe.skipIf(!runBrowserSuites)('working hours scroll (e2e)', () => {
  const s = e2eSuite({ viewport: { width: 683, height: 768 } });
  const standup = () => s.page.getByRole('button', { name: /Standup/ }).first();
  /** The time grid's hour labels ("8AM"). */
  const hourLabels = () => s.page.getByText(/^\d{1,2}\s?[AP]M$/i);

  /**
   * Which of the elements a person sees: each one's box lies inside the box of the grid that
   * scrolls it, and what is drawn at its middle is the element itself (not the sticky day
   * headers over it).
   */
  const seenEach = (targets: Locator) =>
    targets.evaluateAll((els: Dom[]) =>
      els.map((el) => {
        const g = globalThis as Dom;
        let scroller = el.parentElement;
        while (scroller && !/(auto|scroll)/.test(g.getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement;
        if (!scroller) return false;
        const r = el.getBoundingClientRect();
        const box = scroller.getBoundingClientRect();
        if (r.top < box.top || r.bottom > box.bottom) return false;
        const hit = g.document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return !!hit && (el.contains(hit) || hit.contains(el));
      }),
    );
  const seen = async (target: Locator) => (await seenEach(target.first()))[0] === true;
  /** The topmost hour a person sees in the grid ("8AM"), or null. */
  const firstHourSeen = async () => {
    const labels = hourLabels();
    const [texts, flags] = await Promise.all([labels.allTextContents(), seenEach(labels)]);
    const i = flags.indexOf(true);
    return i < 0 ? null : texts[i].replace(/\s/g, '').toUpperCase();
  };
  /** Two painted frames later: a grid that still moves after the first layout is caught moving. */
  const settled = () =>
    s.page.evaluate(() => {
      const frame = (globalThis as Dom).requestAnimationFrame;
      return new Promise((done) => frame(() => frame(done)));
    });

  /** Opened at the working day's start (a quarter hour above it): that hour is the first on screen. */
  async function expectOpenedAt(hour: string) {
    await expect.poll(firstHourSeen).toBe(hour);
    await settled();
    expect(await firstHourSeen()).toBe(hour);
  }

  async function openWeek(view: 'Week' | 'Day' = 'Week') {
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
    // From the month, so the time grid is laid out afresh as when a person switches to it.
    await s.page.getByRole('button', { name: 'Month', exact: true }).click();
    await s.page.getByRole('table', { name: 'March 2031' }).waitFor();
    await s.page.getByRole('button', { name: view, exact: true }).click();
    await standup().waitFor();
  }

  it('seeds an 8:00 standup on a working day that starts at 8:00', async () => {
    const res = await s.api('events', { method: 'POST', body: { title: 'Standup', start_date: '2031-03-12 08:00:00', end_date: '2031-03-12 08:30:00', timezone: BROWSER_ZONE } });
    expect(res.status).toBe(201);
    expect((await s.api('settings', { method: 'PATCH', body: { work_start: '08:00', work_end: '17:00' } })).status).toBe(200);
    await s.page.reload();
    await s.page.getByRole('button', { name: 'Today', exact: true }).waitFor();
  });

  for (const size of SIZES) {
    it(`at ${size.width}×${size.height} the week opens with the 8:00 event on screen`, async () => {
      await s.page.setViewportSize(size);
      await s.page.reload();
      await s.page.getByRole('button', { name: 'Today', exact: true }).waitFor();
      await openWeek();
      await expectOpenedAt('8AM');
      expect(await seen(standup())).toBe(true);
    });

    it(`at ${size.width}×${size.height} the day view opens with the 8:00 event on screen`, async () => {
      await s.page.setViewportSize(size);
      await openWeek('Day');
      await expectOpenedAt('8AM');
      expect(await seen(standup())).toBe(true);
    });
  }

  it('once the person scrolls, resizing the window leaves the grid where they put it', async () => {
    await s.page.setViewportSize(SIZES[0]);
    await openWeek();
    await expectOpenedAt('8AM');
    expect(await seen(standup())).toBe(true);
    // To the evening, with the wheel over the grid.
    const box = (await standup().boundingBox())!;
    await s.page.mouse.move(box.x + box.width / 2, box.y + 200);
    await s.page.mouse.wheel(0, 900);
    // The wheel scrolls smoothly: wait until the evening is on screen and the grid stands still.
    const still = async () => {
      const before = await firstHourSeen();
      await settled();
      return before === (await firstHourSeen()) ? before : 'moving';
    };
    await expect.poll(still).toMatch(/PM$/);
    // Wider columns, taller slots: the grid is laid out again and must not jump back to 8:00.
    await s.page.setViewportSize({ width: 1366, height: 768 });
    // The sidebar is back beside the calendar: the page has been laid out at the new width.
    await s.page.getByRole('button', { name: 'New event', exact: true }).waitFor();
    await settled();
    expect(await firstHourSeen()).toMatch(/PM$/);
    expect(await seen(standup())).toBe(false);
  });

  it('changing the working hours in Settings scrolls the open week to the new start', async () => {
    await s.page.setViewportSize(SIZES[0]);
    await openWeek();
    await expectOpenedAt('8AM');
    expect(await seen(standup())).toBe(true);

    const menu = s.page.getByRole('button', { name: 'Menu', exact: true });
    if (await menu.isVisible()) await menu.click();
    await s.page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByLabel('Working hours start', { exact: true }).fill('13:00');
    await dialog.getByLabel('Working hours end', { exact: true }).fill('19:00');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await s.api('settings')).json).toMatchObject({ work_start: '13:00', work_end: '19:00' });

    await expectOpenedAt('1PM');
    expect(await seen(standup())).toBe(false);
  });
});
