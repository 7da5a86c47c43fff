/**
 * The calendar shown in the Settings zone (issue #15 item 8), in Chromium by accessible names. The
 * computer (the browser) is in New York; the calendar is set to Madrid, so an event at 09:00 New
 * York shows at 15:00 everywhere, a drag or a click on a slot means Madrid's wall time (checked
 * through the API's UTC copies), and reminder banners follow the zone and the 12/24-hour clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { DateTime } from 'luxon';
import { runBrowserSuites } from './browser';
import { e2eSuite, type Json } from './harness';

const COMPUTER = 'America/New_York';
const CALENDAR = 'Europe/Madrid';
/** The server's clock: the real one unless a test sets it (then it stays at that instant). */
let frozenAt: number | undefined;
/** The week view's hour in pixels, measured by the drag (how far the event moved for one hour). */
let hourPx = 0;

describe.skipIf(!runBrowserSuites)('calendar time zone (e2e)', () => {
  const s = e2eSuite({ viewport: { width: 1366, height: 768 }, timezoneId: COMPUTER, now: () => new Date(frozenAt ?? Date.now()), reminderTimer: false });
  afterEach(() => {
    frozenAt = undefined;
  });
  const settingsDialog = () => s.page.getByRole('dialog', { name: 'Settings' });
  const byTitle = async (title: string): Promise<Json> => {
    const [e] = await s.eventsMatching(title);
    expect(e, title).toBeTruthy();
    return e;
  };

  async function saveSettings(change: (d: Locator) => Promise<void>) {
    await s.page.getByRole('button', { name: 'Settings', exact: true }).click();
    await settingsDialog().waitFor();
    await change(settingsDialog());
    await settingsDialog().getByRole('button', { name: 'Save', exact: true }).click();
    await settingsDialog().waitFor({ state: 'detached' });
  }

  async function showWeekOf(date: string) {
    await s.page.getByLabel('Go to date', { exact: true }).fill(date);
    await s.page.getByRole('button', { name: 'Week', exact: true }).click();
    await s.page.getByRole('table', { name: /Jan 12 – 18, 2031/ }).waitFor();
  }

  /** The week's timed event by title (FullCalendar's cell buttons, named by time and title). */
  const weekEvent = (title: string) => s.page.getByRole('table', { name: /2031/ }).getByRole('button', { name: new RegExp(title) });

  it('seeds a New York meeting and an evening call with a reminder', async () => {
    const standup = await s.api('events', { method: 'POST', body: { title: 'Standup', start_date: '2031-01-15 09:00:00', end_date: '2031-01-15 10:00:00', timezone: COMPUTER } });
    expect(standup.status).toBe(201);
    const call = await s.api('events', {
      method: 'POST',
      body: { title: 'Late call', start_date: '2031-02-03 18:30:00', end_date: '2031-02-03 19:00:00', timezone: COMPUTER, reminders: [{ action: 'display', trigger: '-PT10M' }] },
    });
    expect(call.status).toBe(201);
    await s.page.reload();
    await s.page.getByRole('button', { name: 'Today', exact: true }).waitFor();
    // No zone chosen: the computer's (New York) clock.
    await showWeekOf('2031-01-15');
    await expect.poll(() => weekEvent('Standup').textContent()).toMatch(/^9:00 – 10:00\s?am/);
  });

  it('shows an event at the Madrid time in the week view, the month view and its details card', async () => {
    await saveSettings(async (d) => {
      await d.getByLabel('Clock', { exact: true }).selectOption('24h');
      const zone = d.getByRole('combobox', { name: 'Time zone' });
      await zone.fill('Madrid');
      await d.getByRole('option', { name: /Europe\/Madrid/ }).click();
    });
    expect((await s.api('settings')).json).toMatchObject({ timezone: CALENDAR, time_format: '24h' });

    // 09:00 in New York is 15:00 in Madrid in January.
    await expect.poll(() => weekEvent('Standup').textContent()).toMatch(/^15:00 – 16:00/);
    await weekEvent('Standup').click();
    const card = s.page.getByRole('dialog', { name: 'Standup' });
    await expect.poll(() => card.textContent()).toContain('Wednesday, January 15, 2031 · 15:00 – 16:00');
    // The event is kept in New York's zone, and the card says so.
    expect(await card.textContent()).toContain(COMPUTER);
    await s.page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });

    await s.page.getByRole('button', { name: 'Month', exact: true }).click();
    await s.page.getByRole('table', { name: 'January 2031' }).getByRole('button', { name: /^15:00 Standup/ }).waitFor();
    await showWeekOf('2031-01-15');
  });

  it('a drag of one hour in the week view stores 16:00 Madrid time', async () => {
    const event = weekEvent('Standup');
    await expect.poll(() => event.textContent()).toMatch(/^15:00/);
    const box = (await event.boundingBox())!;
    // The event is an hour long: its height is the view's hour.
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 3;
    await s.page.mouse.move(x, y);
    await s.page.mouse.down();
    for (let i = 1; i <= 8; i++) await s.page.mouse.move(x, y + (box.height * i) / 8);
    await s.page.mouse.up();
    await expect.poll(async () => (await byTitle('Standup')).utc_start_date).toBe('2031-01-15 15:00:00');
    const moved = await byTitle('Standup');
    // Kept in its own zone: 16:00 in Madrid is 10:00 in New York.
    expect(moved).toMatchObject({ start_date: '2031-01-15 10:00:00', end_date: '2031-01-15 11:00:00', timezone: COMPUTER });
    await expect.poll(() => event.textContent()).toMatch(/^16:00 – 17:00/);
    hourPx = (await event.boundingBox())!.y - box.y;
    expect(hourPx).toBeGreaterThan(20);
  });

  it('a click on the 11:00 slot creates an event at 11:00 Madrid time, in Madrid\'s zone', async () => {
    const event = weekEvent('Standup');
    await expect.poll(() => event.textContent()).toMatch(/^16:00/);
    const box = (await event.boundingBox())!;
    // The next day's column, five hours above the event's 16:00, a quarter of an hour in: the 11:00 slot.
    const day = (await s.page.getByRole('columnheader', { name: 'January 16, 2031' }).boundingBox())!;
    await s.page.mouse.click(day.x + day.width / 2, box.y - 5 * hourPx + hourPx / 4);
    const quick = s.page.getByRole('dialog', { name: 'New event' });
    await quick.waitFor();
    await expect.poll(() => quick.textContent()).toContain('Thursday, January 16, 2031 · 11:00 – 12:00');
    await quick.getByRole('textbox').first().fill('Planning');
    await quick.getByRole('button', { name: 'Save', exact: true }).click();
    await quick.waitFor({ state: 'detached' });
    await expect.poll(async () => (await s.eventsMatching('Planning')).length).toBe(1);
    expect(await byTitle('Planning')).toMatchObject({
      start_date: '2031-01-16 11:00:00',
      end_date: '2031-01-16 12:00:00',
      timezone: CALENDAR,
      utc_start_date: '2031-01-16 10:00:00',
    });
    await expect.poll(() => weekEvent('Planning').textContent()).toMatch(/^11:00 – 12:00/);
  });

  it('a reminder banner says the Madrid time on the 24-hour clock, then on the 12-hour one', async () => {
    // 18:30 in New York is 00:30 the next day in Madrid.
    const start = DateTime.fromISO('2031-02-03T18:30', { zone: COMPUTER });
    await expect.poll(() => s.server.reminders.clientCount).toBeGreaterThan(0);
    frozenAt = start.minus({ minutes: 9 }).toMillis();
    await s.server.reminders.tick();
    const banner = s.page.getByRole('alert', { name: 'Reminder: Late call' });
    await banner.waitFor();
    await expect.poll(() => banner.textContent()).toContain('Tue, Feb 4, 2031, 00:30');

    await saveSettings(async (d) => void (await d.getByLabel('Clock', { exact: true }).selectOption('12h')));
    await expect.poll(() => banner.textContent()).toMatch(/Tue, Feb 4, 2031, 12:30\sAM/);
    expect(await banner.textContent()).not.toContain('00:30');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('"Today" is Madrid\'s: late evening in New York is already tomorrow there', async () => {
    // 23:30 on January 15 in New York, 05:30 on January 16 in Madrid.
    await s.page.clock.setFixedTime(new Date('2031-01-16T04:30:00Z'));
    await s.page.reload();
    await s.page.getByRole('button', { name: 'Today', exact: true }).click();
    await expect.poll(() => s.page.getByLabel('Go to date', { exact: true }).inputValue()).toBe('01/16/2031');
    const mini = s.page.getByRole('region', { name: 'Go to a date' });
    await expect.poll(() => mini.getByRole('button', { name: 'January 16, 2031' }).getAttribute('aria-current')).toBe('date');
    expect(await mini.getByRole('button', { name: 'January 15, 2031' }).getAttribute('aria-current')).toBeNull();
  });
});
