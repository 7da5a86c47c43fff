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
    // An event today (a load opens on today) in the calendar's zone: once it is drawn, the range
    // that holds it has been answered.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
    const made = await s.api('events', { method: 'POST', body: { title: 'Load marker', all_day: true, start_date: `${today} 00:00:00`, end_date: `${today} 23:59:59`, timezone: 'Asia/Tokyo' } });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
  });

  for (const view of ['Month', 'Week', 'Day', 'Agenda'] as const) {
    it(`in ${view} view: no console error, and only the range on screen is asked for`, async () => {
      await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
      await s.page.getByRole('button', { name: view, exact: true }).click();
      await s.page.getByRole('button', { name: view, pressed: true }).waitFor();
      const errors: string[] = [];
      const ranges: string[] = [];
      const onConsole = (m: { type(): string; text(): string }) => void (m.type() === 'error' && errors.push(m.text()));
      // Counted from the reload's own document on: a request the page before it made is not this load's.
      let reloading = false;
      const onRequest = (r: { url(): string; isNavigationRequest(): boolean }) => {
        if (r.isNavigationRequest()) reloading = true;
        const url = new URL(r.url());
        if (!reloading || !/\/events$/.test(url.pathname) || url.searchParams.get('search')) return;
        ranges.push(`${url.searchParams.get('ends_after') ?? url.searchParams.get('start_date')} → ${url.searchParams.get('starts_before') ?? url.searchParams.get('end_date')}`);
      };
      s.page.on('console', onConsole);
      s.page.on('request', onRequest);
      // The page holds an event stream open: the load is over when the range's answer is drawn.
      const answered = s.page.waitForResponse((r) => reloading && /\/events$/.test(new URL(r.url()).pathname) && !new URL(r.url()).searchParams.get('search'));
      await s.page.reload();
      await answered;
      await s.page.getByRole('button', { name: view, pressed: true }).waitFor();
      await s.page.locator('[data-event-id]', { hasText: 'Load marker' }).first().waitFor();
      s.page.off('console', onConsole);
      s.page.off('request', onRequest);
      expect(errors).toEqual([]);
      expect(ranges.length).toBeGreaterThan(0);
      expect(new Set(ranges).size, ranges.join('\n')).toBe(1);
    });
  }

  it('a link in a description opens outside the calendar, never in its window; a call has Join', async () => {
    await s.api('settings', { method: 'POST', body: { week_starts_on: 'sunday', timezone: '' } });
    const made = await s.api('events', { method: 'POST', body: { title: 'Sync call', start_date: '2031-03-12 10:00:00', end_date: '2031-03-12 10:30:00', timezone: 'UTC', description: 'Notes: https://docs.example.org/notes\nCall: https://meet.google.com/abc-defg-hij' } });
    expect(made.status).toBe(201);
    await s.page.reload();
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
    await s.page.getByRole('button', { name: 'Day', exact: true }).click();
    await s.page.locator('[data-event-id]', { hasText: 'Sync call' }).first().click();
    const card = s.page.getByRole('dialog', { name: 'Sync call' });
    await card.waitFor();
    const before = s.page.url();
    // No internet here: the site answers from the test.
    await s.context.route('https://docs.example.org/**', (r) => r.fulfill({ body: 'notes', contentType: 'text/plain' }));
    const [popup] = await Promise.all([s.context.waitForEvent('page'), card.getByRole('link', { name: 'https://docs.example.org/notes' }).click()]);
    await popup.waitForLoadState('load');
    expect(popup.url()).toBe('https://docs.example.org/notes');
    await popup.close();
    expect(s.page.url()).toBe(before);
    expect(await card.getByRole('link', { name: 'Join the video call on meet.google.com' }).getAttribute('href')).toBe('https://meet.google.com/abc-defg-hij');
  });
});
