/**
 * Issue 27 §5.15: a load logs no Content-Security-Policy error (Chromium refuses an IPv6 literal
 * such as `http://[::1]:*` in a source list and says so on every load) and asks the server for
 * the range on screen only, never another one first.
 */
import { describe, expect, it } from 'vitest';
import { runBrowserSuites } from './browser';
import { e2eSuite } from './harness';

describe.skipIf(!runBrowserSuites)('loading the calendar (e2e)', () => {
  const s = e2eSuite({ viewport: { width: 1366, height: 768 } });

  it('the settings say Monday first and another zone than the computer', async () => {
    const res = await s.api('settings', { method: 'POST', body: { week_starts_on: 'monday', timezone: 'Asia/Tokyo' } });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
  });

  for (const view of ['Month', 'Week', 'Day', 'Agenda'] as const) {
    it(`in ${view} view: no console error, and only the range on screen is asked for`, async () => {
      await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
      await s.page.getByRole('button', { name: view, exact: true }).click();
      await s.page.getByRole('button', { name: view, pressed: true }).waitFor();
      await s.page.waitForTimeout(300);
      const errors: string[] = [];
      const ranges: string[] = [];
      const onConsole = (m: { type(): string; text(): string }) => void (m.type() === 'error' && errors.push(m.text()));
      const onRequest = (r: { url(): string }) => {
        const url = new URL(r.url());
        if (!/\/events$/.test(url.pathname) || url.searchParams.get('search')) return;
        ranges.push(`${url.searchParams.get('ends_after') ?? url.searchParams.get('start_date')} → ${url.searchParams.get('starts_before') ?? url.searchParams.get('end_date')}`);
      };
      s.page.on('console', onConsole);
      s.page.on('request', onRequest);
      await s.page.reload();
      await s.page.getByRole('button', { name: view, pressed: true }).waitFor();
      await s.page.waitForTimeout(800);
      s.page.off('console', onConsole);
      s.page.off('request', onRequest);
      expect(errors).toEqual([]);
      expect(ranges.length).toBeGreaterThan(0);
      expect(new Set(ranges).size, ranges.join('\n')).toBe(1);
    });
  }
});
