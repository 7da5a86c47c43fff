/**
 * Double-booking warnings in Chromium (issue 27 §2): the editor says who holds the venue before
 * saving, on the Settings' clock and zone, and still saves; a drag in the month onto a day when the
 * hall is taken asks "Move anyway?" — Cancel puts the event back, Move anyway moves it. Pictures of
 * both, light and dark, at 1366 and 420 px, go to test/e2e/screenshots (ALMANAC_SHOTS elsewhere).
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { runBrowserSuites } from './browser';
import { e2eSuite, SHOTS as E2E_SHOTS } from './harness';

const SHOTS = process.env.ALMANAC_SHOTS ?? E2E_SHOTS;

describe.skipIf(!runBrowserSuites)('double-booking warnings (e2e)', () => {
  const s = e2eSuite({ viewport: { width: 1366, height: 768 } });
  const event = (title: string) => s.page.getByRole('button', { name: new RegExp(`^(\\S+ )?${title}`) });
  const dayCell = (label: string) => s.page.getByRole('cell', { name: new RegExp(label) });
  let luso = 0;

  async function drag(from: Locator, to: Locator) {
    const a = (await from.boundingBox())!;
    const b = (await to.boundingBox())!;
    await s.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await s.page.mouse.down();
    await s.page.mouse.move(a.x + a.width / 2 + 8, a.y + a.height / 2 + 4, { steps: 4 });
    await s.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
    await s.page.mouse.up();
  }

  /**
   * The editor's form, its warning and its footer stand one under the other: the warning covers
   * no field (the venue it speaks of among them) and the footer covers neither.
   */
  async function expectStacked(editor: Locator) {
    const box = async (selector: string) => (await editor.locator(selector).first().boundingBox())!;
    const [body, warning, footer] = [await box('.editor-body'), await box('.conflict-warning'), await box('.dialog-footer')];
    expect(body.y + body.height, 'the form ends above the warning').toBeLessThanOrEqual(warning.y + 0.5);
    expect(warning.y + warning.height, 'the warning ends above the footer').toBeLessThanOrEqual(footer.y + 0.5);
  }

  /** The page as it is, light and dark, at 1366 and at 420 px wide; back to 1366 light after. */
  async function shoot(name: string, visible: Locator, check?: () => Promise<void>) {
    mkdirSync(SHOTS, { recursive: true });
    for (const [width, height] of [[1366, 768], [420, 800]] as const) {
      await s.page.setViewportSize({ width, height });
      for (const scheme of ['light', 'dark'] as const) {
        await s.page.emulateMedia({ colorScheme: scheme });
        await visible.waitFor();
        await s.page.waitForTimeout(150);
        await check?.();
        await s.page.screenshot({ path: join(SHOTS, `${name}-${width}-${scheme}.png`) });
      }
    }
    await s.page.setViewportSize({ width: 1366, height: 768 });
    await s.page.emulateMedia({ colorScheme: 'light' });
  }

  async function post(body: Record<string, unknown>): Promise<number> {
    const res = await s.api('events', { method: 'POST', body: { timezone: 'Europe/Lisbon', ...body } });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json.id as number;
  }

  it('the editor says who holds the venue then, in the Settings zone and clock, and still saves', async () => {
    // The calendar's zone is Lisbon on a 24-hour clock; the computer is in São Paulo.
    expect((await s.api('settings', { method: 'PATCH', body: { timezone: 'Europe/Lisbon', time_format: '24h' } })).status).toBe(200);
    luso = (await s.api('venues', { method: 'POST', body: { venue: 'Sala Luso' } })).json.id;
    await post({ title: 'Recital', start_date: '2031-03-12 19:00:00', end_date: '2031-03-12 21:00:00', venue: luso });
    const talk = await post({ title: 'Talk', start_date: '2031-03-12 16:00:00', end_date: '2031-03-12 17:00:00', venue: luso });
    await s.page.reload();
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
    const asked = s.page.waitForResponse((r) => r.url().includes('/events/conflicts'));
    await event('Talk').dblclick();
    const editor = s.page.getByRole('dialog', { name: 'Edit event' });
    await editor.waitFor();
    const warning = editor.getByTestId('conflict-warning');
    // 16:00–17:00: nobody else there. The editor has asked and been answered so; then, once the page
    // has had a frame to draw what the answer makes, no warning.
    expect((await (await asked).json()).events).toEqual([]);
    await s.page.evaluate('new Promise((r) => requestAnimationFrame(() => setTimeout(r)))');
    expect(await warning.count()).toBe(0);
    await editor.getByLabel('End time', { exact: true }).fill('20:00');
    await warning.waitFor();
    expect(await warning.innerText()).toContain('Sala Luso is booked 19:00–21:00 by Recital');
    await shoot('booking-editor', warning, () => expectStacked(editor));
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    expect((await s.api(`events/${talk}`)).json.end_date).toBe('2031-03-12 20:00:00');
  });

  it('a drag onto a day when the hall is taken asks first: Cancel puts it back, Move anyway moves it', async () => {
    const walk = await post({ title: 'Walk', start_date: '2031-03-13 19:30:00', end_date: '2031-03-13 20:30:00', venue: luso });
    await s.page.reload();
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-13');
    await event('Walk').waitFor();
    await drag(event('Walk'), dayCell('March 12, 2031'));
    const ask = s.page.getByRole('dialog', { name: 'Double booking' });
    await ask.waitFor();
    expect(await ask.innerText()).toContain('Sala Luso is booked 19:00–21:00 by Recital');
    await shoot('booking-drag', ask);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect((await s.api(`events/${walk}`)).json.start_date).toBe('2031-03-13 19:30:00');
    // Put back on screen too: still in its own day.
    await expect.poll(async () => (await dayCell('March 13, 2031').innerText()).includes('Walk')).toBe(true);

    await drag(event('Walk'), dayCell('March 12, 2031'));
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Move anyway' }).click();
    await expect.poll(async () => (await s.api(`events/${walk}`)).json.start_date).toBe('2031-03-12 19:30:00');
  });
});
