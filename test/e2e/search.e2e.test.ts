/**
 * Search across the whole calendar (issue #15, item 7): every match, past and future and beyond
 * the API's first page, listed by date; choosing one goes to its day.
 */
import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { runBrowserSuites } from './browser';
import { e2eSuite, BROWSER_ZONE } from './harness';

describe.skipIf(!runBrowserSuites)('search (e2e)', () => {
  const s = e2eSuite();

  it('lists every match, past and future, from every page, grouped by date', async () => {
    const at = (d: string, h: number) => `${d} ${String(h).padStart(2, '0')}:00:00`;
    const bodies = [
      { title: 'Piano recital', day: '2019-06-01' },
      { title: 'Piano recital', day: '2040-09-15' },
      { title: 'Dentist', day: '2031-03-11' },
      // 55 weekly lessons: more than one page (50) of the API.
      ...Array.from({ length: 55 }, (_, i) => ({ title: 'Piano lesson', day: DateTime.fromISO('2031-01-06').plus({ weeks: i }).toISODate()! })),
    ];
    for (const b of bodies) {
      const r = await s.api('events', { method: 'POST', body: { title: b.title, start_date: at(b.day, 17), end_date: at(b.day, 18), timezone: BROWSER_ZONE } });
      expect(r.status).toBe(201);
    }
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
    await s.page.getByRole('searchbox', { name: 'Search events' }).fill('piano');
    const results = s.page.getByRole('region', { name: 'Search results for “piano”' });
    await results.getByText('57 events match “piano”').waitFor();
    expect(await results.getByRole('button', { name: /^Piano/ }).count()).toBe(57);
    expect(await results.getByRole('button', { name: /Dentist/ }).count()).toBe(0);
    const headings = await results.getByRole('heading').allInnerTexts();
    expect(headings[0]).toBe('Saturday, June 1, 2019');
    expect(headings.at(-1)).toBe('Saturday, September 15, 2040');
    expect(headings).toContain('Monday, January 6, 2031');
  });

  it('goes to the day of the match chosen, with its card open, and leaves the search', async () => {
    const results = s.page.getByRole('region', { name: 'Search results for “piano”' });
    await results.getByRole('region', { name: 'Saturday, September 15, 2040' }).getByRole('button', { name: /Piano recital/ }).click();
    await s.page.getByRole('dialog', { name: 'Piano recital' }).waitFor();
    await s.page.getByRole('button', { name: 'Day', pressed: true }).waitFor();
    await s.page.getByRole('heading', { name: /September 15, 2040/ }).waitFor();
    expect(await s.page.getByRole('searchbox', { name: 'Search events' }).inputValue()).toBe('');
    expect(await results.count()).toBe(0);
    expect(s.pageErrors).toEqual([]);
  });
});
