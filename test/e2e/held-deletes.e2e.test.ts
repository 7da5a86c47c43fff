/**
 * Deletions a sync holds (issue 25), in the calendar window: when the server stops listing most
 * of a calendar at once, the sidebar says so under the account, nothing is deleted, and the user
 * picks "Keep them, send them back" (they go back to the server) or "Delete them here". Against
 * the small CalDAV server of test/helpers/hostile-caldav.ts (no real server is needed to list less).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runBrowserSuites } from './browser';
import { e2eSuite } from './harness';
import { calendarText, startHostileCalDav, vevent, type HostileCalDav } from '../helpers/hostile-caldav';

describe.skipIf(!runBrowserSuites)('deletions held for the user (e2e)', { timeout: 90_000 }, () => {
  const s = e2eSuite({ viewport: { width: 1400, height: 900 }, server: { syncIntervalMs: 0, syncDebounceMs: 0 } });
  let dav: HostileCalDav;
  let calendar = 0;
  afterAll(() => dav?.close());

  const sidebar = () => s.page.getByRole('complementary');
  const status = () => sidebar().getByRole('group', { name: 'Sync of Home' });
  const held = () => status().getByRole('group', { name: 'Deletions held in Work' });
  const count = async () => ((await s.api(`events?calendar=${calendar}&per_page=50&starts_before=9999-12-31&ends_after=0001-01-01`)).json.events as unknown[]).length;

  async function syncNow() {
    const asked = new Date().toISOString();
    await status().getByRole('button', { name: 'Sync Home now' }).click();
    await expect.poll(async () => ((await s.api('sync')).json.accounts[0]?.last_round?.finished ?? '') > asked, { timeout: 30_000 }).toBe(true);
    await expect.poll(() => status().getByRole('button', { name: 'Sync Home now' }).isEnabled()).toBe(true);
  }

  /** The server stops listing 11 of the 12 events. */
  function emptyServer() {
    for (let i = 11; i < 22; i++) dav.objects.delete(`e${i}.ics`);
    dav.put('e10.ics', calendarText(vevent('e10', 'Event 10', [], '20310310')));
  }

  it('a calendar of 12 events, synced', async () => {
    dav = await startHostileCalDav();
    for (let i = 10; i < 22; i++) dav.put(`e${i}.ics`, calendarText(vevent(`e${i}`, `Event ${i}`, [], `203103${i}`)));
    const added = await s.api('accounts', { method: 'POST', body: { url: dav.url, username: dav.user, password: dav.password, name: 'Home' } });
    expect(added.status).toBe(201);
    calendar = (added.json.calendars as Array<{ id: number }>)[0].id;
    await s.page.reload();
    await syncNow();
    expect(await count()).toBe(12);
  });

  it('11 of 12 no longer listed: held and told, nothing deleted; "Keep them, send them back" puts them back on the server', async () => {
    emptyServer();
    await syncNow();
    await held().getByText('Work: the server no longer lists 11 of its 12 events. Nothing was deleted here.').waitFor();
    expect(await count()).toBe(12);
    await held().getByRole('button', { name: 'Keep the 11 events of Work and send them back to the server' }).click();
    await held().waitFor({ state: 'detached', timeout: 30_000 });
    await syncNow();
    expect(dav.objects.size).toBe(12);
    expect(await count()).toBe(12);
  });

  it('held again, then "Delete them here": they go', async () => {
    emptyServer();
    await syncNow();
    await held().getByRole('button', { name: 'Delete the 11 events of Work here' }).click();
    await held().waitFor({ state: 'detached', timeout: 30_000 });
    await expect.poll(count, { timeout: 30_000 }).toBe(1);
    expect(dav.objects.size).toBe(1);
  });
});
