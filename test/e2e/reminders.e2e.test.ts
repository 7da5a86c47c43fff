/**
 * Reminders end to end in Chromium (issue 16): an event made through the editor with "1 minute
 * before", the server's clock moved (no minute-long waits), the banner and then a Web Notification
 * once the user turned them on, Snooze, the clock moved again, the reminder back — each step
 * checked through the API's `reminders/due`.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { runBrowserSuites } from './browser';
import { BROWSER_ZONE, SHOTS, e2eSuite } from './harness';

const TITLE = 'Dentist check-up';
/** What the page's Notification is given (this file is typed for Node, without the DOM's types). */
type Permission = 'default' | 'granted' | 'denied';
type Options = { body?: string; tag?: string; silent?: boolean };
/**
 * The server's clock: the real one until a test sets it, then still at that instant, so what the
 * server computes from "now" (a snooze's end) does not depend on how long the page took meanwhile.
 */
let frozenAt: number | undefined;

describe.skipIf(!runBrowserSuites)('reminders (e2e)', () => {
  const s = e2eSuite({ now: () => new Date(frozenAt ?? Date.now()), reminderTimer: false });

  beforeAll(async () => {
    // The page's Notification, as a browser that was allowed to show them would run it: each one
    // recorded so the test can see it and click it. Permission starts undecided.
    await s.context.addInitScript(() => {
      const w = globalThis as unknown as { __notes: unknown[]; Notification: unknown };
      w.__notes = [];
      class Recorded {
        static permission: Permission = 'default';
        static async requestPermission() {
          Recorded.permission = 'granted';
          return Recorded.permission;
        }
        onclick: (() => void) | null = null;
        onclose: (() => void) | null = null;
        constructor(
          readonly title: string,
          readonly options: Options = {},
        ) {
          w.__notes.push(this);
        }
        close() {}
      }
      w.Notification = Recorded;
    });
    await s.page.reload();
    await s.page.getByRole('button', { name: 'Today', exact: true }).waitFor();
  });

  afterEach(() => {
    frozenAt = undefined;
  });

  /** Sets the server's clock to `at` and lets it fire what is due by then. */
  async function serverAt(at: DateTime) {
    frozenAt = at.toMillis();
    await s.server.reminders.tick();
  }

  const due = async () => ((await s.api('reminders/due')).json.reminders as Array<Record<string, unknown>>).filter((r) => r.title === TITLE);
  const notes = () => s.page.evaluate(() => (globalThis as unknown as { __notes: Array<{ title: string; options: Options }> }).__notes.map((n) => ({ title: n.title, tag: n.options.tag, silent: n.options.silent })));

  it('creates "1 minute before", rings, snoozes for 5 minutes and rings again', async () => {
    const { page } = s;
    // Two minutes from now on the page's clock, in the page's zone, to the minute.
    const start = DateTime.now().setZone(BROWSER_ZONE).plus({ minutes: 2 }).startOf('minute').plus({ minutes: 1 });
    await page.getByRole('button', { name: 'New event', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'New event' });
    await dialog.getByLabel('Title', { exact: true }).fill(TITLE);
    await dialog.getByLabel('Start', { exact: true }).fill(start.toISODate()!);
    await dialog.getByLabel('Start time', { exact: true }).fill(start.toFormat('HH:mm'));
    const section = dialog.getByRole('group', { name: 'Notifications' });
    await section.getByRole('button', { name: 'Add notification' }).click();
    await section.getByRole('combobox', { name: 'Notification 1' }).selectOption({ label: 'Custom…' });
    await section.getByRole('spinbutton', { name: 'Notification 1: how many' }).fill('1');
    await section.getByRole('combobox', { name: 'Notification 1: unit' }).selectOption({ label: 'minutes' });
    await dialog.screenshot({ path: join(SHOTS, 'reminders-editor-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await dialog.screenshot({ path: join(SHOTS, 'reminders-editor-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const [saved] = await s.eventsMatching(TITLE);
    expect(saved.start_date).toBe(start.toFormat('yyyy-MM-dd HH:mm:ss'));
    expect(saved.timezone).toBe(BROWSER_ZONE);
    expect(saved.reminders).toEqual([{ action: 'display', trigger: '-PT1M' }]);
    // The bell on the event in every view, by its name (the month grid's own buttons, FullCalendar's week and agenda).
    for (const view of ['Month', 'Week', 'Agenda']) {
      await page.getByRole('button', { name: view, exact: true }).click();
      await expect.poll(() => page.locator(`[data-event-id="${saved.id}"]`).first().textContent()).toContain('Has notifications');
    }
    await page.getByRole('button', { name: 'Week', exact: true }).click();

    // The window is listening before the clock moves.
    await expect.poll(() => s.server.reminders.clientCount).toBeGreaterThan(0);
    await serverAt(start.minus({ seconds: 61 }));
    expect(await due()).toEqual([]);
    await serverAt(start.minus({ seconds: 59 }));
    const banner = page.getByRole('alert', { name: `Reminder: ${TITLE}` });
    await banner.waitFor();
    expect((await due()).map((r) => r.fired)).toEqual([true]);
    // No notification before the user allowed them; asked on their press, never at load.
    expect(await notes()).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'reminders-banner-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(SHOTS, 'reminders-banner-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('button', { name: 'Turn on notifications' }).click();
    await page.getByRole('button', { name: 'Turn on notifications' }).waitFor({ state: 'detached' });

    await banner.getByRole('button', { name: 'Snooze 5 min' }).click();
    await banner.waitFor({ state: 'detached' });
    expect(await due()).toEqual([]);

    // Four minutes on: still snoozed. Five: back, as a banner and a notification.
    await serverAt(start.plus({ minutes: 3 }));
    expect(await due()).toEqual([]);
    await serverAt(start.plus({ minutes: 4, seconds: 2 }));
    await banner.waitFor();
    await expect.poll(notes).toEqual([{ title: TITLE, tag: expect.any(String), silent: true }]);
    expect((await due()).map((r) => r.fired)).toEqual([true]);

    // A click on the notification opens the event's details card.
    await page.evaluate(() => (globalThis as unknown as { __notes: Array<{ onclick: () => void }> }).__notes[0].onclick());
    await page.getByRole('dialog', { name: TITLE }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'reminders-details-light.png') });
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
    expect(await due()).toEqual([]);
    // Dismissed for good: time moving on does not bring it back.
    await serverAt(start.plus({ minutes: 30 }));
    expect(await due()).toEqual([]);
    expect(await page.getByRole('alert', { name: `Reminder: ${TITLE}` }).count()).toBe(0);
  });
});
