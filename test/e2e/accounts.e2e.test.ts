/**
 * Accounts and calendars in the calendar window (issue 17's last bullet), in Chromium by
 * accessible names against a real Radicale: add the account in the UI (a wrong password first,
 * told on the Password field), see its calendars with their colours and events, hide one (its
 * events leave the view, and stay hidden after a reload), rename and recolour one, edit an event, Sync now, and read the
 * server's copy straight from Radicale; a conflict is resolved with "Keep mine"; removing the
 * account takes its events off this computer and leaves the server's.
 */
import { describe, expect, it } from 'vitest';
import { runBrowserSuites } from './browser';
import { join } from 'node:path';
import { e2eSuite, SHOTS } from './harness';
import { startRadicale, makeCalendar, putIcs, getResource, runCalDavSuites, type CalDavTestServer } from '../helpers/caldav-servers';

/** The page's elements, loosely typed: the tests are compiled without the DOM library. */
type Dom = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const PASSWORD = 'Sesame-€-42';
const vevent = (uid: string, start: string, end: string, summary: string) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test client//EN', 'BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20310101T000000Z', `DTSTART:${start}`, `DTEND:${end}`, `SUMMARY:${summary}`, 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');

describe.skipIf(!runBrowserSuites || !runCalDavSuites)('accounts and calendars (e2e)', { timeout: 90_000 }, () => {
  // Sync only when asked: what waits to be sent is then there to be seen, and every round is the test's.
  const s = e2eSuite({ viewport: { width: 1400, height: 900 }, server: { syncIntervalMs: 0, syncDebounceMs: 0 } });
  let dav: CalDavTestServer;
  let workUrl: string;
  let lunchHref: string;

  const sidebar = () => s.page.getByRole('complementary');
  const month = () => s.page.getByRole('table', { name: 'March 2031' });
  const entry = (title: string | RegExp) => month().getByRole('button', { name: title });
  const status = () => sidebar().getByRole('group', { name: 'Sync of Home' });
  /** The colour an entry of the month is drawn in. */
  const drawnIn = (title: string) => entry(title).evaluate((el: Dom) => el.style.getPropertyValue('--fc-event-color'));
  const serverCopy = async () => (await getResource(dav, lunchHref)).text.replace(/\r\n[ \t]/g, '');

  /** Clicks "Sync now" and waits for that round (not an earlier one) to be over and shown. */
  async function syncNow() {
    const asked = new Date().toISOString();
    await status().getByRole('button', { name: 'Sync Home now' }).click();
    await expect.poll(async () => ((await s.api('sync')).json.accounts[0]?.last_round?.finished ?? '') > asked, { timeout: 30_000 }).toBe(true);
    await expect.poll(() => status().getByRole('button', { name: 'Sync Home now' }).isEnabled()).toBe(true);
    await expect.poll(() => status().textContent()).toMatch(/Last synced now/);
  }

  it('starts Radicale with two calendars and an event in each', async () => {
    dav = await startRadicale({ user: 'alice', password: PASSWORD });
    workUrl = await makeCalendar(dav, 'work', { displayName: 'Work', color: '#FF2968FF' });
    const familyUrl = await makeCalendar(dav, 'family', { displayName: 'Family', color: '#1BADF8' });
    const lunch = await putIcs(dav, workUrl, vevent('lunch-1@test', '20310312T150000Z', '20310312T160000Z', 'Team lunch'));
    expect(lunch.status).toBe(201);
    lunchHref = lunch.href;
    expect((await putIcs(dav, familyUrl, vevent('piano-1@test', '20310313T210000Z', '20310313T220000Z', 'Piano lesson'))).status).toBe(201);
  }, 60_000);

  it('adds the account in the UI: a wrong password is told on its field, then its calendars come with their colours and events', async () => {
    await sidebar().getByRole('button', { name: 'Add account…' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Add a CalDAV account' });
    expect(await dialog.getByLabel('Password', { exact: true }).inputValue()).toBe('');
    expect(await dialog.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('password');
    await dialog.getByLabel('Server address', { exact: true }).fill(dav.url);
    await dialog.getByLabel('User name', { exact: true }).fill('alice');
    await dialog.getByLabel('Password', { exact: true }).fill('not-the-password');
    await dialog.getByLabel('Account name (optional)', { exact: true }).fill('Home');
    await dialog.getByRole('button', { name: 'Add account', exact: true }).click();
    await expect.poll(() => dialog.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await dialog.getByText(/refused the user name or password/).waitFor();
    expect((await s.api('accounts')).json).toEqual([]);

    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Add account', exact: true }).click();
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    const [account] = (await s.api('accounts')).json as unknown as Array<Record<string, any>>;
    expect(account).toMatchObject({ name: 'Home', username: 'alice' });
    expect(JSON.stringify(account)).not.toContain(PASSWORD);

    // Each calendar with its show/hide checkbox and its colour.
    for (const [name, colour] of [['Work', 'rgb(255, 41, 104)'], ['Family', 'rgb(27, 173, 248)']]) {
      const box = sidebar().getByRole('checkbox', { name, exact: true });
      expect(await box.isChecked()).toBe(true);
      const swatch = await box.evaluate((el: Dom) => (globalThis as Dom).getComputedStyle(el.parentElement.querySelector('.swatch')).backgroundColor);
      expect(swatch).toBe(colour);
    }
    // The first round starts by itself: the events are drawn in their calendars' colours.
    await expect.poll(() => status().textContent(), { timeout: 30_000 }).toMatch(/Last synced/);
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
    await s.page.getByRole('button', { name: 'Month', exact: true }).click();
    await entry(/Team lunch/).waitFor();
    await entry(/Piano lesson/).waitFor();
    expect(await drawnIn('Team lunch')).toBe('#ff2968');
    expect(await drawnIn('Piano lesson')).toBe('#1badf8');
  });

  it('hiding a calendar takes its events out of the view and the search, and is remembered', async () => {
    await sidebar().getByRole('checkbox', { name: 'Family', exact: true }).uncheck();
    await entry(/Piano lesson/).waitFor({ state: 'detached' });
    await entry(/Team lunch/).waitFor();
    const family = ((await s.api('calendars')).json as unknown as Array<Record<string, any>>).find((c) => c.name === 'Family')!;
    expect(family.visible).toBe(false);

    await s.page.getByRole('searchbox', { name: 'Search events' }).fill('Piano');
    await s.page.getByText('No event matches “Piano”').waitFor();
    await s.page.getByRole('searchbox', { name: 'Search events' }).fill('');

    await s.page.reload();
    await s.page.getByRole('button', { name: 'Today', exact: true }).waitFor();
    expect(await sidebar().getByRole('checkbox', { name: 'Family', exact: true }).isChecked()).toBe(false);
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-12');
    await s.page.getByRole('button', { name: 'Month', exact: true }).click();
    await entry(/Team lunch/).waitFor();
    expect(await entry(/Piano lesson/).count()).toBe(0);
  });

  it('a calendar renamed and recoloured here draws its events in the new colour', async () => {
    await sidebar().getByRole('button', { name: 'Settings of Work' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Calendar “Work”' });
    await dialog.getByLabel('Name', { exact: true }).fill('Office');
    await dialog.getByLabel('Colour', { exact: true }).fill('#00aa44');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await sidebar().getByRole('checkbox', { name: 'Office', exact: true }).waitFor();
    await expect.poll(() => drawnIn('Team lunch')).toBe('#00aa44');
    const office = ((await s.api('calendars')).json as unknown as Array<Record<string, any>>).find((c) => c.name === 'Office')!;
    expect(office).toMatchObject({ color: '#00aa44', synced: true });
  });

  it('an event edited here waits to be sent, and Sync now puts it on the server', async () => {
    await entry(/Team lunch/).click();
    await s.page.getByRole('dialog', { name: 'Team lunch' }).getByRole('button', { name: 'Edit', exact: true }).click();
    const editor = s.page.getByRole('dialog', { name: 'Edit event' });
    const calendar = editor.getByRole('combobox', { name: 'Calendar', exact: true });
    expect(await calendar.locator('option:checked').textContent()).toBe('Office (Home)');
    await editor.getByLabel('Title', { exact: true }).fill('Team lunch with Ana');
    await editor.getByRole('button', { name: 'Save', exact: true }).click();
    await editor.waitFor({ state: 'detached' });
    await expect.poll(() => status().textContent()).toMatch(/1 change waiting to be sent/);
    // For a person to look at: the sidebar with its calendars and the account's state.
    await sidebar().screenshot({ path: join(SHOTS, 'calendars-sidebar.png') });
    expect(await serverCopy()).toContain('SUMMARY:Team lunch\r\n');

    await syncNow();
    await expect.poll(() => status().textContent()).not.toMatch(/waiting/);
    const copy = await serverCopy();
    expect(copy).toContain('SUMMARY:Team lunch with Ana');
    expect(copy).toContain('UID:lunch-1@test');
    expect(copy).toContain('DTSTART:20310312T150000Z');
  });

  it('changed on both sides: the server wins the event, "Keep mine" brings mine back and sends it', async () => {
    const before = await getResource(dav, lunchHref);
    const theirs = before.text.replace(/^SUMMARY:.*$/m, 'SUMMARY:Lunch moved by Ana');
    expect((await putIcs(dav, workUrl, theirs, { name: lunchHref.split('/').pop(), ifMatch: before.etag! })).status).toBeLessThan(300);
    const [mine] = await s.eventsMatching('Team lunch with Ana');
    expect((await s.api(`events/${mine.id}`, { method: 'PATCH', body: { title: 'Lunch with Ana and Bo' } })).status).toBe(200);

    await syncNow();
    const conflicts = sidebar().getByRole('region', { name: '1 sync conflict' });
    await conflicts.waitFor();
    await entry(/Lunch moved by Ana/).waitFor();
    await conflicts.getByRole('button', { name: 'Keep my version of Lunch with Ana and Bo' }).click();
    await conflicts.waitFor({ state: 'detached' });
    await entry(/Lunch with Ana and Bo/).waitFor();
    await syncNow();
    expect(await serverCopy()).toContain('SUMMARY:Lunch with Ana and Bo');

    // Once more, and this time the server's version is the one kept: the copy goes, nothing is sent.
    const now = await getResource(dav, lunchHref);
    expect((await putIcs(dav, workUrl, now.text.replace(/^SUMMARY:.*$/m, 'SUMMARY:Lunch at noon'), { name: lunchHref.split('/').pop(), ifMatch: now.etag! })).status).toBeLessThan(300);
    expect((await s.api(`events/${mine.id}`, { method: 'PATCH', body: { title: 'Lunch at one' } })).status).toBe(200);
    await syncNow();
    await conflicts.getByRole('button', { name: "Keep the server’s version of Lunch at one" }).click();
    await conflicts.waitFor({ state: 'detached' });
    await entry(/Lunch at noon/).waitFor();
    await syncNow();
    expect(await serverCopy()).toContain('SUMMARY:Lunch at noon');
    expect((await s.api('sync')).json.conflicts).toEqual([]);
  });

  it('removing the account asks first, then its events leave this computer and stay on the server', async () => {
    await sidebar().getByRole('button', { name: 'Remove account Home' }).click();
    const confirm = s.page.getByRole('dialog', { name: 'Remove the account Home?' });
    expect(await confirm.textContent()).toMatch(/leave this computer\. Nothing is deleted on the server/);
    await confirm.getByRole('button', { name: 'Remove account', exact: true }).click();
    await sidebar().getByRole('checkbox', { name: 'Office', exact: true }).waitFor({ state: 'detached' });
    await entry(/Lunch at noon/).waitFor({ state: 'detached' });
    expect((await s.api('accounts')).json).toEqual([]);
    expect(await serverCopy()).toContain('SUMMARY:Lunch at noon');
    await dav.stop();
  });
});
