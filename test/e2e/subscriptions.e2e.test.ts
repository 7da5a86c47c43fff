/**
 * Subscribing to a published calendar from the sidebar (issue 17 item 7): the dialog tells a bad
 * address on its field, a good one brings the feed's events into the month view, and such an
 * event opens without Edit or Delete. The feed is a real node `http` server started here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBrowserSuites } from './browser';
import { e2eSuite } from './harness';
import { startFeedServer, icsFeed, type FeedServer } from '../helpers/feed-server';

describe.skipIf(!runBrowserSuites)('calendar subscriptions (e2e)', () => {
  const s = e2eSuite();
  let feed: FeedServer;
  beforeAll(async () => {
    feed = await startFeedServer();
    feed.setFeed(
      icsFeed('Team calendar', [
        { uid: 'offsite@team.example', summary: 'Team offsite', start: '20310514', end: '20310515' },
        { uid: 'review@team.example', summary: 'Release review', start: '20310520T170000Z', end: '20310520T180000Z' },
      ]),
    );
  });
  afterAll(async () => {
    await feed?.close();
  });

  it('subscribes from the sidebar: a bad address is told on its field, a good one shows its events', async () => {
    await s.page.getByRole('button', { name: 'Subscribe to calendar…' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Subscribe to calendar' });
    await dialog.waitFor();
    const url = dialog.getByLabel('Calendar address (URL)');
    await url.fill(`${feed.url}/page.html`);
    await dialog.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await expect.poll(() => url.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByRole('alert').innerText()).toContain('This address does not give an iCalendar file (it sent a web page)');
    expect((await s.api('calendars')).json).toHaveLength(1);

    await url.fill(`webcal-typo${feed.url}`);
    await dialog.getByRole('button', { name: 'Subscribe', exact: true }).click();
    expect(await dialog.getByRole('alert').innerText()).toContain('webcal://, https:// or http://');

    await url.fill(`${feed.url}/feed.ics`);
    await dialog.getByLabel('Name (optional)').fill('Team');
    await dialog.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const calendars = (await s.api('calendars')).json as unknown as Array<{ name: string; read_only: boolean; subscription: { url: string } | null }>;
    expect(calendars.find((c) => c.name === 'Team')).toMatchObject({ read_only: true, subscription: { url: `${feed.url}/feed.ics` } });

    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-05-14');
    await s.page.getByRole('button', { name: /Team offsite/ }).first().waitFor();
    await s.page.getByRole('button', { name: /Release review/ }).first().waitFor();
  });

  it('a subscribed event opens without Edit or Delete, by click or double-click', async () => {
    await s.page.getByRole('button', { name: /Team offsite/ }).first().click();
    const card = s.page.getByRole('dialog', { name: 'Team offsite' });
    await card.waitFor();
    expect(await card.innerText()).toContain('From the subscription “Team”: read-only here');
    await card.getByRole('button', { name: 'Duplicate' }).waitFor();
    expect(await card.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await card.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    await s.page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });

    await s.page.getByRole('button', { name: /Release review/ }).first().dblclick();
    await s.page.getByRole('dialog', { name: 'Release review' }).waitFor();
    expect(await s.page.getByRole('dialog', { name: 'Edit event' }).count()).toBe(0);
    await s.page.keyboard.press('Escape');
    expect(s.pageErrors).toEqual([]);
  });
});
