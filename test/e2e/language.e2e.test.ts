/**
 * The records language explained (issue #15, item 11): switching it says what is shown and that
 * the other events are kept, the toolbar always names it, and an event created while another
 * language's records are shown says where it went (checked through the API).
 */
import { describe, expect, it } from 'vitest';
import { runBrowserSuites } from './browser';
import { e2eSuite, BROWSER_ZONE } from './harness';

describe.skipIf(!runBrowserSuites)('records language (e2e)', () => {
  const s = e2eSuite();

  it('says what switching the records language shows, and names it in the toolbar', async () => {
    for (const title of ['Standup', 'Retro']) {
      const r = await s.api('events', { method: 'POST', body: { title, start_date: '2031-03-12 09:00:00', end_date: '2031-03-12 10:00:00', timezone: BROWSER_ZONE } });
      expect(r.status).toBe(201);
    }
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
    const toolbar = s.page.getByRole('toolbar', { name: 'Calendar navigation' });
    const badge = toolbar.locator('.records-badge');
    await expect.poll(() => badge.textContent()).toBe('Records: English');
    await s.page.getByLabel('Records language', { exact: true }).selectOption('es');
    await s.page.getByRole('status').getByText('Showing Spanish records: 0 events. Your English events are still there.').waitFor();
    await expect.poll(() => badge.textContent()).toBe('Records: Spanish');
    await s.page.getByRole('button', { name: /Standup/ }).waitFor({ state: 'detached' });
  });

  it('says in which language’s records a new event went', async () => {
    await s.page.getByRole('button', { name: 'New event', exact: true }).click();
    const dialog = s.page.getByRole('dialog', { name: 'New event' });
    await dialog.getByLabel('Title', { exact: true }).fill('Cena con Ana');
    await dialog.getByLabel('Start', { exact: true }).fill('2031-03-13');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await s.page.getByRole('status').getByText('Created “Cena con Ana” in the Spanish records').waitFor();
    const [es] = await s.eventsMatching('Cena', 'es');
    expect(es.i18n_language).toBe('es');
    expect(await s.eventsMatching('Cena', 'en')).toEqual([]);

    await s.page.getByLabel('Records language', { exact: true }).selectOption('en');
    await s.page.getByRole('status').getByText('Showing English records: 2 events. Your Spanish events are still there.').waitFor();
    await s.page.getByRole('button', { name: /Standup/ }).waitFor();
    expect(s.pageErrors).toEqual([]);
  });
});
