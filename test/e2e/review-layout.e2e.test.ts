/**
 * Issue 27 §5: what a new-user review found on a lived-in calendar at 1366×768 and 420×800, light
 * and dark, measured by boxes (text inside its box, nothing sideways, controls in reach) rather
 * than by eye; the pictures go to test/e2e/screenshots/ui-*.png (ALMANAC_SHOTS elsewhere) for a person to look at too.
 *
 * The calendar is seeded around today (reminders ring only for what is near): overlapping
 * meetings, repeating events with reminders, a crowded day, a venue with a long name and a long
 * description, long category and venue names, and reminders that are due now.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { runBrowserSuites } from './browser';
import { e2eSuite, BROWSER_ZONE, SHOTS as E2E_SHOTS } from './harness';

type Box = { x: number; y: number; width: number; height: number };

const SHOTS = process.env.ALMANAC_SHOTS ?? E2E_SHOTS;
const today = DateTime.now().setZone(BROWSER_ZONE).startOf('day');
/** A weekday (Tuesday to Thursday) near today, so the week views show it and its neighbours. */
const day = today.plus({ days: today.weekday >= 5 ? 8 - today.weekday + 1 : 1 });
const at = (d: DateTime, hm: string) => `${d.toISODate()} ${hm}:00`;
const LONG_VENUE = 'Auditório Municipal Professor Doutor Francisco Manuel de Almeida Garrett e Sala Polivalente do Centro Cultural';
const LONG_TEXT = Array.from({ length: 14 }, (_, i) => `<p>Paragraph ${i + 1}: doors open an hour early, bring your ticket printed or on the phone, the bar takes cards only, and the cloakroom closes at midnight.</p>`).join('');

describe.skipIf(!runBrowserSuites)('what the new-user review found (e2e)', () => {
  const s = e2eSuite({ viewport: { width: 1366, height: 768 } });

  async function shoot(name: string) {
    mkdirSync(SHOTS, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await s.page.emulateMedia({ colorScheme: scheme });
      await s.page.waitForTimeout(100);
      await s.page.screenshot({ path: join(SHOTS, `ui-${name}-${scheme}.png`) });
    }
    await s.page.emulateMedia({ colorScheme: 'light' });
  }

  async function open(width: number, height: number, view: 'Month' | 'Week' | 'Day' | 'Agenda', date = day.toISODate()!) {
    await s.page.setViewportSize({ width, height });
    await s.page.getByLabel('Go to date', { exact: true }).fill(date);
    await s.page.getByLabel('Go to date', { exact: true }).press('Enter');
    const menuButton = s.page.getByRole('button', { name: 'Menu', exact: true });
    if (width < 700 && (await s.page.getByRole('complementary', { name: 'Sidebar' }).isVisible())) await menuButton.click();
    await s.page.getByRole('button', { name: view, exact: true }).click();
    await s.page.getByRole('button', { name: view, pressed: true }).waitFor();
  }

  /** How far the page and the main column can scroll sideways (0: not at all). */
  const sideways = () =>
    s.page.evaluate<number>(
      `Math.max(document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth, (document.querySelector('.main')?.scrollWidth ?? 0) - (document.querySelector('.main')?.clientWidth ?? 0))`,
    );

  it('seeds a lived-in calendar', async () => {
    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await s.api(path, { method: 'POST', body });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      return res.json;
    };
    const luso = await post('venues', { venue: 'Sala Luso', city: 'Lisboa', address: 'Rua da Prata 10' });
    const long = await post('venues', { venue: LONG_VENUE, city: 'Lisboa', address: 'Avenida da República, número 1234, Edifício Central, piso 3, sala 305', country: 'Portugal' });
    for (const name of ['Concertos e Recitais de Música Antiga', 'Exposições temporárias', 'Family', 'Work', 'Workshops for children and their grandparents']) await post('categories', { name });
    for (let i = 0; i < 6; i++) await post('venues', { venue: `Teatro Nacional Dona Maria Segunda, sala ${i + 1} (Estúdio Experimental)`, city: 'Lisboa', address: `Praça Dom Pedro IV, ${i + 1}` });
    const z = { timezone: BROWSER_ZONE };
    // Overlapping meetings on one day.
    await post('events', { ...z, title: 'Quarterly planning with the whole product team', start_date: at(day, '10:00'), end_date: at(day, '14:00'), categories: ['Work'], venue: luso.id, reminders: [{ action: 'display', trigger: '-PT15M' }] });
    await post('events', { ...z, title: 'Budget review with finance', start_date: at(day, '10:30'), end_date: at(day, '12:00'), categories: ['Work'], featured: true, reminders: [{ action: 'display', trigger: '-PT10M' }] });
    await post('events', { ...z, title: 'Interview: senior designer', start_date: at(day, '11:00'), end_date: at(day, '15:00'), categories: ['Work'], venue: long.id });
    // Repeating events with reminders.
    await post('events', { ...z, title: 'Daily standup', start_date: at(today, '09:00'), end_date: at(today, '09:15'), categories: ['Work'], recurrence: { rules: ['FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'], rdates: [], exdates: [] }, reminders: [{ action: 'display', trigger: '-PT5M' }] });
    await post('events', { ...z, title: 'Swimming lesson', start_date: at(today, '18:00'), end_date: at(today, '19:00'), categories: ['Family'], recurrence: { rules: ['FREQ=WEEKLY;BYDAY=MO,WE'], rdates: [], exdates: [] }, reminders: [{ action: 'display', trigger: '-PT30M' }] });
    // A crowded day.
    for (const [i, title] of ['Coffee with Ana', 'Dentist', 'Pick up the car', 'Call the plumber', 'Pay the rent', 'Piano tuner'].entries()) {
      await post('events', { ...z, title, start_date: at(day.plus({ days: 1 }), `${String(8 + i * 2).padStart(2, '0')}:00`), end_date: at(day.plus({ days: 1 }), `${String(9 + i * 2).padStart(2, '0')}:00`), categories: ['Family'] });
    }
    // A long venue and description.
    await post('events', { ...z, title: 'Fado night', start_date: at(day.plus({ days: 2 }), '21:00'), end_date: at(day.plus({ days: 2 }), '23:30'), venue: long.id, description: LONG_TEXT, categories: ['Concertos e Recitais de Música Antiga'] });
    // Reminders due now: four banners.
    const soon = DateTime.now().setZone(BROWSER_ZONE).plus({ minutes: 20 }).startOf('minute');
    for (const title of ['Call mum', 'Submit the report', 'Water the plants', 'Team lunch at Luso']) {
      await post('events', { ...z, title, start_date: soon.toFormat('yyyy-MM-dd HH:mm:ss'), end_date: soon.plus({ minutes: 30 }).toFormat('yyyy-MM-dd HH:mm:ss'), reminders: [{ action: 'display', trigger: '-PT30M' }] });
    }
    // More of a lived-in month.
    for (let i = 0; i < 30; i++) {
      const d = today.startOf('month').plus({ days: i % 28 });
      await post('events', { ...z, title: ['Yoga', 'Book club', 'Lunch with Rui', 'Gym', 'Groceries'][i % 5], start_date: at(d, `${String(7 + (i % 12)).padStart(2, '0')}:30`), end_date: at(d, `${String(8 + (i % 12)).padStart(2, '0')}:30`) });
    }
    await s.server.reminders.tick();
    await s.page.reload();
    await s.page.getByRole('button', { name: 'Today', exact: true }).waitFor();
    // Two more ring while the window is open: banners besides the summary of the ones before.
    for (const title of ['Leave for the airport', 'Feed the cat']) {
      await post('events', { ...z, title, start_date: soon.toFormat('yyyy-MM-dd HH:mm:ss'), end_date: soon.plus({ minutes: 30 }).toFormat('yyyy-MM-dd HH:mm:ss'), reminders: [{ action: 'display', trigger: '-PT30M' }] });
    }
    await s.server.reminders.tick();
    await s.page.getByRole('alert', { name: /reminders/ }).waitFor();
  });

  /** Whether two boxes overlap (more than a pixel). */
  const overlaps = (a: Box, b: Box) => a.x + a.width > b.x + 1 && b.x + b.width > a.x + 1 && a.y + a.height > b.y + 1 && b.y + b.height > a.y + 1;

  it('§5.16 the toolbar keeps one row in every view at 1366 px, so the grid never moves between views', async () => {
    const heights: Record<string, number> = {};
    for (const view of ['Month', 'Week', 'Day', 'Agenda'] as const) {
      await open(1366, 768, view);
      const box = (await s.page.getByRole('toolbar', { name: 'Calendar' }).boundingBox())!;
      heights[view] = Math.round(box.height);
      await shoot(`1366-${view.toLowerCase()}`);
    }
    expect(new Set(Object.values(heights)).size, JSON.stringify(heights)).toBe(1);
    expect(heights.Day).toBeLessThan(64);
  });

  for (const [w, h] of [
    [1366, 768],
    [420, 800],
  ] as const) {
    it(`§5.12 at ${w} px the reminders cover nothing: not the grid, not today, not the toolbar`, async () => {
      await open(w, h, 'Month', today.toISODate()!);
      const stack = s.page.getByRole('region', { name: 'Reminders' });
      await stack.waitFor();
      const box = (await stack.boundingBox())!;
      for (const name of ['.calendar-pane', '.toolbar', '.mg-today']) {
        const other = await s.page.locator(name).first().boundingBox();
        expect(other, name).not.toBeNull();
        expect(overlaps(box, other!), `${name} under the reminders`).toBe(false);
      }
      // The summary and two banners fold into one line.
      expect(box.height).toBeLessThan(h * 0.12);
      await shoot(`${w}-reminders`);
      await stack.getByRole('button', { name: 'Show' }).click();
      await stack.getByRole('button', { name: 'Hide' }).waitFor();
      const opened = (await stack.boundingBox())!;
      expect(overlaps(opened, (await s.page.locator('.calendar-pane').boundingBox())!)).toBe(false);
      expect(opened.height).toBeLessThan(h * 0.5);
      await shoot(`${w}-reminders-open`);
      await stack.getByRole('button', { name: 'Hide' }).click();
    });
  }

  it("§5.1 phone week: every event's text stays inside its box", async () => {
    await open(420, 800, 'Week');
    await s.page.locator('[data-event-id]', { hasText: 'Budget review' }).first().waitFor();
    const escapes = await s.page.evaluate<string[]>(`(() => {
      const out = [];
      for (const ev of Array.from(document.querySelectorAll('.ev-column'))) {
        let box = ev.parentElement;
        while (box && getComputedStyle(box).position !== 'absolute') box = box.parentElement;
        if (!box) continue;
        const outer = box.getBoundingClientRect();
        for (const part of [ev, ...Array.from(ev.querySelectorAll('.ev-title, .ev-time, .ev-badge'))]) {
          const r = part.getBoundingClientRect();
          // What is painted: the part as far as the clipping event box lets it show.
          const clip = ev.getBoundingClientRect();
          const bottom = part === ev ? r.bottom : Math.min(r.bottom, clip.bottom);
          const right = part === ev ? r.right : Math.min(r.right, clip.right);
          if (r.width && r.height && (bottom > outer.bottom + 1 || right > outer.right + 1)) out.push(\`\${ev.textContent}: \${part.className} \${Math.round(bottom - outer.bottom)}px below\`);
        }
      }
      return out;
    })()`);
    expect(escapes).toEqual([]);
    await shoot('420-week');
  });

  it('§5.2 phone month: titles first (icons only with room), "+N more" whole and inside its cell', async () => {
    await open(420, 800, 'Month', today.toISODate()!);
    await s.page.locator('.mg-line').first().waitFor();
    const found = await s.page.evaluate<{ bad: string[]; more: number }>(`(() => {
      const bad = [];
      for (const line of Array.from(document.querySelectorAll('.mg-line'))) {
        const title = line.querySelector('.ev-title');
        // At least a letter and its "…", or the whole title when it is shorter.
        if (title.clientWidth < Math.min(title.scrollWidth, 14)) bad.push(\`title \${title.textContent} is \${title.clientWidth}px\`);
        for (const badge of Array.from(line.querySelectorAll('.ev-badge'))) {
          if (badge.clientWidth > 0 && title.clientWidth < title.scrollWidth) bad.push(\`icons of \${title.textContent} take the title's room\`);
        }
      }
      const more = Array.from(document.querySelectorAll('.mg-more'));
      for (const m of more) {
        const shown = Array.from(m.querySelectorAll('.ev-more-link > span')).find((e) => e.getClientRects().length && e.getBoundingClientRect().width > 1);
        const link = m.querySelector('.ev-more-link');
        if (link.scrollWidth > link.clientWidth + 1) bad.push(\`"\${shown.textContent}" is cut\`);
        const cell = m.closest('[role="cell"]').getBoundingClientRect();
        if (m.getBoundingClientRect().bottom > cell.bottom + 1) bad.push(\`"\${shown.textContent}" below its cell\`);
      }
      return { bad, more: more.length };
    })()`);
    expect(found.more).toBeGreaterThan(0);
    expect(found.bad).toEqual([]);
    await shoot('420-month');
  });

  for (const [w, h] of [
    [1366, 768],
    [420, 800],
  ] as const) {
    it(`§5.3 at ${w} px the details card of a long venue and description stays in the window: Edit and Delete in reach`, async () => {
      await open(w, h, 'Week', day.plus({ days: 2 }).toISODate()!);
      await s.page.locator('[data-event-id]', { hasText: 'Fado night' }).first().click();
      const card = s.page.getByRole('dialog', { name: 'Fado night' });
      await card.waitFor();
      const box = (await card.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(h);
      for (const name of ['Edit', 'Delete']) {
        const b = (await card.getByRole('button', { name, exact: true }).boundingBox())!;
        expect(b.y + b.height, name).toBeLessThanOrEqual(h);
        expect(b.y).toBeGreaterThanOrEqual(0);
      }
      // The description is all there, by scrolling the card.
      await card.getByText('Paragraph 14', { exact: false }).scrollIntoViewIfNeeded();
      expect(await card.getByText('Paragraph 14', { exact: false }).isVisible()).toBe(true);
      await shoot(`${w}-details`);
      await s.page.keyboard.press('Escape');
      await card.waitFor({ state: 'detached' });
    });
  }

  it('§5.8 Categories and Venues at 420 px: nothing cut or scrolled sideways', async () => {
    await s.page.setViewportSize({ width: 420, height: 800 });
    for (const screen of ['Categories', 'Venues'] as const) {
      await s.page.getByRole('button', { name: 'Menu', exact: true }).click();
      await s.page.getByRole('complementary', { name: 'Sidebar' }).getByRole('button', { name: screen }).click();
      await s.page.getByRole('heading', { name: screen }).waitFor();
      await s.page.locator('.table tbody tr').first().waitFor();
      expect(await sideways()).toBe(0);
      const cut = await s.page.evaluate<string[]>(`(() => {
        const wrap = document.querySelector('.table-wrap').getBoundingClientRect();
        return Array.from(document.querySelectorAll('.table tbody th, .table tbody td'))
          .filter((c) => c.getBoundingClientRect().width > 0 && c.getBoundingClientRect().right > wrap.right + 1)
          .map((c) => c.textContent);
      })()`);
      expect(cut, screen).toEqual([]);
      await shoot(`420-${screen.toLowerCase()}`);
    }
    await s.page.getByRole('button', { name: 'Menu', exact: true }).click();
    await s.page.getByRole('complementary', { name: 'Sidebar' }).getByRole('button', { name: 'Calendar', exact: true }).click();
    expect(s.pageErrors).toEqual([]);
  });

  it('prints the agenda, the week and the month through the system dialog: the calendar alone, at full height, light', async () => {
    await s.page.setViewportSize({ width: 1366, height: 768 });
    await s.page.evaluate(`(() => { window.__printed = 0; window.print = () => { window.__printed++; }; })()`);
    for (const view of ['Agenda', 'Week', 'Month'] as const) {
      await open(1366, 768, view);
      await s.page.getByRole('complementary', { name: 'Sidebar' }).getByRole('button', { name: 'Print…' }).click();
      await expect.poll(() => s.page.evaluate<number>('window.__printed')).toBeGreaterThan(0);
      await s.page.emulateMedia({ media: 'print', colorScheme: 'dark' });
      await s.page.evaluate(`window.dispatchEvent(new Event('beforeprint'))`);
      await s.page.waitForTimeout(300);
      expect(await s.page.getByRole('complementary', { name: 'Sidebar' }).isVisible()).toBe(false);
      expect(await s.page.getByRole('button', { name: 'Today', exact: true }).isVisible()).toBe(false);
      expect(await s.page.getByRole('region', { name: 'Reminders' }).isVisible()).toBe(false);
      const page = await s.page.evaluate<{ background: string; width: number; scrollers: number; events: number }>(`(() => ({
        events: Array.from(document.querySelectorAll('.calendar-host [data-event-id]')).filter((el) => el.getBoundingClientRect().height > 4).length,
        background: getComputedStyle(document.querySelector('.calendar-host')).getPropertyValue('--bg').trim(),
        width: document.querySelector('.calendar-host').getBoundingClientRect().width,
        // Boxes whose content is cut off by their own scrolling: none on paper.
        scrollers: Array.from(document.querySelectorAll('.calendar-host *')).filter((el) => {
          const cs = getComputedStyle(el);
          return /(auto|scroll)/.test(cs.overflowY) && el.scrollHeight > el.clientHeight + 2;
        }).length,
      }))()`);
      expect(page.background).toBe('#ffffff');
      expect(page.width).toBeGreaterThan(1000);
      expect(page.scrollers, view).toBe(0);
      expect(page.events, view).toBeGreaterThan(3);
      await s.page.screenshot({ path: join(SHOTS, `ui-print-${view.toLowerCase()}.png`), fullPage: true });
      await s.page.evaluate(`window.dispatchEvent(new Event('afterprint'))`);
      await s.page.emulateMedia({ media: 'screen', colorScheme: 'light' });
      await s.page.evaluate(`window.__printed = 0`);
    }
  });
});
