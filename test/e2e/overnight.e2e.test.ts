/**
 * Issue 27 §5.7 and §5.14: an event from 23:00 to 01:30 is a timed event crossing midnight (a
 * line with its time in month view, "11:00 PM – 1:30 AM" on both parts in week view, never a
 * two-day bar nor "23:00 – 00:00"), and on the night the clocks go back a 30-minute event from
 * 01:30 does not read "01:30 – 01:00". The computer is in Lisbon, whose clocks go back on
 * 26 October 2031 at 02:00.
 */
import { describe, expect, it } from 'vitest';
import { runBrowserSuites } from './browser';
import { e2eSuite } from './harness';

describe.skipIf(!runBrowserSuites)('events crossing midnight and a clock change (e2e)', () => {
  const s = e2eSuite({ viewport: { width: 1366, height: 768 }, timezoneId: 'Europe/Lisbon' });
  const grid = () => s.page.getByRole('table', { name: /2031/ });

  it('seeds a late show and a fall-back-night event', async () => {
    const late = await s.api('events', { method: 'POST', body: { title: 'Late show', start_date: '2031-10-14 23:00:00', end_date: '2031-10-15 01:30:00', timezone: 'Europe/Lisbon' } });
    expect(late.status).toBe(201);
    // 00:30–01:00 UTC: 01:30 summer time, then 01:00 winter time, half an hour later.
    const fallBack = await s.api('events', { method: 'POST', body: { title: 'Fall back', start_date: '2031-10-26 00:30:00', end_date: '2031-10-26 01:00:00', timezone: 'UTC' } });
    expect(fallBack.status).toBe(201);
    await s.page.reload();
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-10-14');
    await s.page.getByRole('button', { name: 'Month', exact: true }).click();
    await s.page.getByRole('heading', { name: 'October 2031', exact: true }).waitFor();
  });

  it('month view: a timed line on the day it starts, not a bar over two days', async () => {
    const show = grid().locator('[data-event-id]', { hasText: 'Late show' });
    await show.first().waitFor();
    expect(await show.count()).toBe(1);
    const cell = await show.evaluate((el) => el.closest('[role="cell"]')?.getAttribute('data-date') ?? null);
    expect(cell).toBe('2031-10-14');
    expect(await show.locator('.ev-time').textContent()).toBe('11p');
  });

  it('week view: each part says the real times', async () => {
    await s.page.getByRole('button', { name: 'Week', exact: true }).click();
    const parts = s.page.locator('[data-event-id]', { hasText: 'Late show' });
    await expect.poll(() => parts.count()).toBe(2);
    for (const text of await parts.allTextContents()) {
      expect(text).toContain('11:00\u00a0PM – 1:30\u00a0AM');
      expect(text).not.toMatch(/12:00/);
    }
  });

  it('the fall-back night: the card and the week view name the zones instead of "1:30 – 1:00"', async () => {
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-10-26');
    const event = s.page.locator('[data-event-id]', { hasText: 'Fall back' });
    await event.waitFor();
    const weekText = (await event.textContent()) ?? '';
    expect(weekText).toMatch(/1:30\u00a0AM \S+ – 1:00\u00a0AM \S+/);
    await event.click();
    const card = s.page.getByRole('dialog', { name: 'Fall back' });
    await card.waitFor();
    const text = (await card.textContent()) ?? '';
    expect(text).not.toContain('1:30\u00a0AM – 1:00\u00a0AM');
    expect(text).toMatch(/1:30\u00a0AM (\S+) – 1:00\u00a0AM (\S+)/);
    const [, a, b] = /1:30\u00a0AM (\S+) – 1:00\u00a0AM (\S+)/.exec(text)!;
    expect(a).not.toBe(b);
  });
});
