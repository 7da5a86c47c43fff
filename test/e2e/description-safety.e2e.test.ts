/**
 * A description that came from elsewhere (a website's events, a CalDAV server, an iCalendar file)
 * may hold markup made to run: `<script>`, an `<img onerror>`, a `javascript:` link, an
 * `<iframe>`. The calendar shows such a description in the details card, the editor and the
 * search results without running or loading any of it, its words still there and its web
 * addresses still links (issue 27). Checked in Chromium against the real server, which keeps the
 * description as it was written, with the page's Content-Security-Policy switched off: the policy
 * would stop inline script on its own, and what is checked here is that the page never puts the
 * markup where it could run.
 */
import { describe, expect, it } from 'vitest';
import { runBrowserSuites } from './browser';
import { e2eSuite, BROWSER_ZONE } from './harness';

/** Every way the markup below would run, sets a flag on the page's window. */
const HOSTILE = [
  '<p>Bring <b>a chair</b>.</p>',
  '<script>window.__ran = (window.__ran || []).concat("script")</script>',
  '<img src="x:nothing" onerror="window.__ran = (window.__ran || []).concat(\'img\')">',
  '<svg><animate onbegin="window.__ran = (window.__ran || []).concat(\'svg\')" attributeName="x" dur="1s"/></svg>',
  '<iframe srcdoc="<script>parent.__ran = (parent.__ran || []).concat(\'iframe\')</script>"></iframe>',
  '<p><a href="javascript:window.__ran = (window.__ran || []).concat(\'link\')">Tickets here</a></p>',
  '<p>Programme: https://jazz.example.org/programme</p>',
].join('');

describe.skipIf(!runBrowserSuites)('a synced description never runs script (e2e)', () => {
  const s = e2eSuite({ bypassCSP: true });
  const ran = () => s.page.evaluate<unknown>('window.__ran ?? null');
  /**
   * The probe's positive control: the same markup, flagging `__control` instead, put into a scratch
   * element by innerHTML (where it does run) after the page has shown the description. Once each of
   * its ways has fired, the page's copy had as long, so a `__ran` still empty says it never ran.
   */
  async function controlFired() {
    const control = JSON.stringify(HOSTILE.replaceAll('__ran', '__control'));
    await s.page.evaluate(`{ const scratch = document.createElement('div'); scratch.id = 'probe-control'; scratch.innerHTML = ${control}; document.body.append(scratch); }`);
    await s.page.waitForFunction(`['img', 'svg', 'iframe'].every((way) => (window.__control ?? []).includes(way))`);
    await s.page.evaluate(`document.getElementById('probe-control')?.remove(); delete window.__control;`);
  }

  it('the details card shows its words and its web address as a link, and nothing in it runs', async () => {
    const created = await s.api('events', {
      method: 'POST',
      body: { title: 'Hostile gig', start_date: '2031-05-14 20:00:00', end_date: '2031-05-14 22:00:00', timezone: BROWSER_ZONE, description: HOSTILE },
    });
    expect(created.status).toBe(201);
    // The server keeps it as written: what the page does with it is what is checked here.
    expect(created.json.description).toContain('onerror');

    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-05-14');
    await s.page.getByRole('button', { name: /Hostile gig/ }).first().click();
    const card = s.page.getByRole('dialog', { name: 'Hostile gig' });
    await card.waitFor();
    const text = await card.innerText();
    for (const words of ['Bring a chair.', 'Tickets here', 'Programme: https://jazz.example.org/programme']) expect(text).toContain(words);
    expect(text).not.toContain('<script');
    // An image's error and an animation's begin come after a moment: the control's came.
    await controlFired();
    expect(await ran()).toBeNull();
    // The address is a link that opens outside; the javascript: one is only its words.
    expect(await card.getByRole('link', { name: 'https://jazz.example.org/programme' }).getAttribute('href')).toBe('https://jazz.example.org/programme');
    expect(await card.getByRole('link', { name: 'Tickets here' }).count()).toBe(0);
    expect(await card.locator('[href^="javascript:" i], img, iframe, svg animate, script').count()).toBe(0);

    // Clicking the words that were a javascript: link runs nothing either.
    await card.getByText('Tickets here').click();
    expect(await ran()).toBeNull();
    await s.page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
  });

  it('the editor and the search results show it without running it', async () => {
    await s.page.getByRole('button', { name: /Hostile gig/ }).first().dblclick();
    const editor = s.page.getByRole('dialog', { name: 'Edit event' });
    await editor.waitFor();
    const description = editor.getByLabel('Description', { exact: true });
    await description.waitFor();
    expect(await description.inputValue()).toContain('Bring');
    await controlFired();
    expect(await ran()).toBeNull();
    await s.page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });

    await s.page.getByRole('searchbox', { name: 'Search events' }).fill('chair');
    await s.page.getByRole('option', { name: /Hostile gig/ }).or(s.page.getByRole('button', { name: /Hostile gig/ })).first().waitFor();
    await controlFired();
    expect(await ran()).toBeNull();
    expect(s.pageErrors).toEqual([]);
  });
});
