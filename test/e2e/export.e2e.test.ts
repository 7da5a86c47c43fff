/**
 * Export from the calendar (issue #15, item 5): the "Export…" button and Ctrl+E open a dialog
 * named "Export"; in a browser tab the file is downloaded: iCalendar of the whole calendar or of
 * what the filters show, or the JSON backup. The files' contents are checked.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBrowserSuites } from './browser';
import { e2eSuite, BROWSER_ZONE } from './harness';

describe.skipIf(!runBrowserSuites)('export (e2e)', () => {
  const s = e2eSuite();

  async function downloaded(click: () => Promise<void>): Promise<{ name: string; text: string }> {
    const [file] = await Promise.all([s.page.waitForEvent('download'), click()]);
    return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') };
  }

  it('downloads what the filters show as iCalendar, or the whole calendar', async () => {
    for (const [title, category] of [
      ['Quarterly planning', 'Work'],
      ['Dentist', 'Family'],
    ]) {
      const r = await s.api('events', { method: 'POST', body: { title, categories: [category], start_date: '2031-03-03 10:00:00', end_date: '2031-03-03 11:00:00', timezone: BROWSER_ZONE } });
      expect(r.status).toBe(201);
    }
    await s.page.reload();
    await s.page.getByRole('checkbox', { name: 'Work' }).check();
    await s.page.getByRole('button', { name: 'Export…' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Export' });
    expect(await dialog.getByRole('radio', { name: /iCalendar/ }).isChecked()).toBe(true);
    expect(await dialog.getByRole('radio', { name: /current filters/ }).isChecked()).toBe(true);
    const filtered = await downloaded(() => dialog.getByRole('button', { name: 'Download' }).click());
    expect(filtered.name).toMatch(/\.ics$/);
    expect(filtered.text).toContain('SUMMARY:Quarterly planning');
    expect(filtered.text).not.toContain('SUMMARY:Dentist');
    await dialog.waitFor({ state: 'detached' });

    await s.page.getByRole('button', { name: 'Export…' }).click();
    await dialog.getByRole('radio', { name: /whole calendar/ }).check();
    const whole = await downloaded(() => dialog.getByRole('button', { name: 'Download' }).click());
    expect(whole.text).toContain('SUMMARY:Quarterly planning');
    expect(whole.text).toContain('SUMMARY:Dentist');
    await s.page.getByRole('checkbox', { name: 'Work' }).uncheck();
  });

  it('opens with Ctrl+E and downloads the JSON backup of everything', async () => {
    await s.page.getByRole('button', { name: 'Today', exact: true }).focus();
    await s.page.keyboard.press('Control+e');
    const dialog = s.page.getByRole('dialog', { name: 'Export' });
    await dialog.getByRole('radio', { name: /backup/ }).check();
    const backup = await downloaded(() => dialog.getByRole('button', { name: 'Download' }).click());
    expect(backup.name).toMatch(/\.json$/);
    const json = JSON.parse(backup.text);
    const titles = JSON.stringify(json);
    expect(titles).toContain('Quarterly planning');
    expect(titles).toContain('Dentist');
    expect(s.pageErrors).toEqual([]);
  });
});
