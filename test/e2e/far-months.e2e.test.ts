/**
 * A month decades past the repeat horizon in Chromium (issue 27 §4): its occurrences are drawn
 * without rows being written, and one of them opens, edits and saves like any event (its row is
 * written then, and the month shows it once).
 */
import { describe, expect, it } from 'vitest';
import { runBrowserSuites } from './browser';
import { e2eSuite } from './harness';

describe.skipIf(!runBrowserSuites)('far months (e2e)', () => {
  const s = e2eSuite({ viewport: { width: 1366, height: 768 } });
  const event = (title: string) => s.page.getByRole('button', { name: new RegExp(`^(\\S+ )?${title}`) });

  it('draws a month of 2091 from its series and edits one occurrence of it', async () => {
    const created = await s.api('events', {
      method: 'POST',
      body: { title: 'Choir practice', start_date: '2027-01-05 19:00:00', end_date: '2027-01-05 21:00:00', timezone: 'America/Sao_Paulo', recurrence: { rules: ['FREQ=WEEKLY;BYDAY=TU'] } },
    });
    expect(created.status).toBe(201);
    const rows = () => s.server.store.db.prepare("SELECT count(*) FROM events WHERE start_local >= '2091-01-01'").pluck().get() as number;
    await s.page.reload();
    await s.page.getByLabel('Go to date', { exact: true }).fill('2091-03-06');
    // The grid's six weeks hold six Tuesdays: 27 February to 3 April.
    await expect.poll(() => event('Choir practice').count()).toBe(6);
    expect(rows()).toBe(0);

    // 13 March.
    await event('Choir practice').nth(2).dblclick();
    const editor = s.page.getByRole('dialog', { name: 'Edit event' });
    await editor.waitFor();
    await editor.getByLabel('Title', { exact: true }).fill('Choir concert');
    await editor.getByRole('button', { name: 'Save' }).click();
    // It repeats: which ones change?
    await s.page.getByRole('button', { name: 'This event', exact: true }).click();
    await editor.waitFor({ state: 'detached' });
    await event('Choir concert').waitFor();
    await expect.poll(() => event('Choir practice').count()).toBe(5);
    expect(await event('Choir concert').count()).toBe(1);
    // Its row only.
    expect(rows()).toBe(1);
    const [saved] = await s.eventsMatching('Choir concert');
    expect(saved).toMatchObject({ start_date: '2091-03-13 19:00:00', series_id: created.json.id, is_exception: true });
  });
});
