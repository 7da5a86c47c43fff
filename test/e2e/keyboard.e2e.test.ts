/**
 * Keyboard and everyday habits (issue #15, item 12): `?` lists the shortcuts, "Skip to calendar"
 * is the first Tab stop, the agenda starts at today, month titles are written as Portuguese and
 * Spanish write them, and a drag says where the event went with an Undo (checked through the API).
 */
import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Locator } from 'playwright-core';
import { runBrowserSuites } from './browser';
import { e2eSuite, BROWSER_ZONE } from './harness';

describe.skipIf(!runBrowserSuites)('keyboard and habits (e2e)', () => {
  const s = e2eSuite();
  const event = (title: string) => s.page.getByRole('button', { name: new RegExp(`^(\\S+ )?${title}`) });

  async function drag(from: Locator, to: Locator) {
    const a = (await from.boundingBox())!;
    const b = (await to.boundingBox())!;
    await s.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await s.page.mouse.down();
    await s.page.mouse.move(a.x + a.width / 2 + 8, a.y + a.height / 2 + 4, { steps: 4 });
    await s.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
    await s.page.mouse.up();
  }

  it('makes "Skip to calendar" the first Tab stop, and it lands in the calendar', async () => {
    await s.page.reload();
    await s.page.getByRole('button', { name: 'Today', exact: true }).waitFor();
    await s.page.keyboard.press('Tab');
    const link = s.page.getByRole('link', { name: 'Skip to calendar' });
    expect(await link.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await s.page.keyboard.press('Enter');
    await expect.poll(() => s.page.evaluate<string | undefined>('document.activeElement?.id')).toBe('main');
  });

  it('lists every shortcut in a dialog on ?', async () => {
    await s.page.keyboard.press('?');
    const dialog = s.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    const text = await dialog.innerText();
    for (const line of ['New event', 'Go to today', 'Month view', 'Agenda', 'Search', 'Undo the last change', 'Export…']) expect(text).toContain(line);
    await s.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('starts the agenda at today', async () => {
    const today = DateTime.now().setZone(BROWSER_ZONE).startOf('day');
    const at = (d: DateTime) => d.set({ hour: 10 }).toFormat('yyyy-MM-dd HH:mm:ss');
    for (const [title, day] of [
      ['Yesterday’s review', today.minus({ days: 1 })],
      ['Tomorrow’s dentist', today.plus({ days: 1 })],
    ] as const) {
      const r = await s.api('events', { method: 'POST', body: { title, start_date: at(day), end_date: at(day.plus({ hours: 1 })), timezone: BROWSER_ZONE } });
      expect(r.status).toBe(201);
    }
    await s.page.getByRole('button', { name: 'Today', exact: true }).click();
    await s.page.keyboard.press('a');
    await s.page.getByRole('button', { name: 'Agenda', pressed: true }).waitFor();
    await s.page.getByText('Tomorrow’s dentist').waitFor();
    expect(await s.page.getByText('Yesterday’s review').count()).toBe(0);
    // The title runs from today: "Nov 25 – Dec 24, 2026".
    await s.page.getByRole('heading', { name: new RegExp(`^${today.setLocale('en-US').toFormat('LLL d')} –`) }).waitFor();
    await s.page.keyboard.press('m');
  });

  it('writes month titles as Portuguese and Spanish do', async () => {
    await s.page.getByLabel('Go to date', { exact: true }).fill('2026-11-15');
    await s.page.getByRole('heading', { name: 'November 2026', exact: true }).waitFor();
    await s.page.getByLabel('Interface language', { exact: true }).selectOption('pt-br');
    await s.page.getByRole('heading', { name: 'novembro de 2026', exact: true }).waitFor();
    await s.page.getByLabel('Idioma da interface', { exact: true }).selectOption('es');
    await s.page.getByRole('heading', { name: 'noviembre de 2026', exact: true }).waitFor();
    await s.page.getByLabel('Idioma de la interfaz', { exact: true }).selectOption('en');
    await s.page.getByRole('heading', { name: 'November 2026', exact: true }).waitFor();
  });

  it('says where a dragged event went, with an Undo that puts it back', async () => {
    const r = await s.api('events', { method: 'POST', body: { title: 'Yoga class', start_date: '2031-03-10 18:00:00', end_date: '2031-03-10 19:00:00', timezone: BROWSER_ZONE } });
    const id = r.json.id;
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-10');
    await event('Yoga class').waitFor();
    await drag(event('Yoga class'), s.page.getByRole('cell', { name: /March 12, 2031/ }));
    const toast = s.page.getByRole('status').filter({ hasText: 'Moved “Yoga class” to Wed, Mar 12, 6:00' });
    await toast.waitFor();
    expect((await s.api(`events/${id}`)).json.start_date).toBe('2031-03-12 18:00:00');
    await toast.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await s.api(`events/${id}`)).json.start_date).toBe('2031-03-10 18:00:00');
    expect((await s.api(`events/${id}`)).json.end_date).toBe('2031-03-10 19:00:00');
    expect(s.pageErrors).toEqual([]);
  });
});
