/**
 * The event editor never saves what the user did not mean (issue #15, items 1–4): two-digit
 * years, a time zone typed but not picked, an end left behind when the start moves, and a
 * refusal the user can read. Each step is checked through the API.
 */
import { describe, expect, it } from 'vitest';
import { runBrowserSuites } from './browser';
import type { Locator } from 'playwright-core';
import { e2eSuite, BROWSER_ZONE } from './harness';
import { parseDateText, parseTimeText } from '../../renderer/src/lib/dateText';

/** What a time or date field holds, whatever clock or order it is shown in. */
const hhmm = async (l: Locator) => parseTimeText(await l.inputValue());
const iso = async (l: Locator) => parseDateText(await l.inputValue(), 'en');

describe.skipIf(!runBrowserSuites)('event editor (e2e)', () => {
  const s = e2eSuite();

  async function newEvent(title: string) {
    // A fresh page: each test stands on its own even when the one before left a dialog open.
    await s.page.reload();
    await s.page.getByRole('button', { name: 'New event', exact: true }).click();
    const dialog = s.page.getByRole('dialog', { name: 'New event' });
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    return dialog;
  }

  it('reads a two-digit year typed as 11/30/26 as 2026, keeping the event’s length', async () => {
    const dialog = await newEvent('Flu shot');
    await dialog.getByLabel('Start time', { exact: true }).fill('10:00');
    await dialog.getByLabel('End time', { exact: true }).fill('10:30');
    const start = dialog.getByLabel('Start', { exact: true });
    await start.selectText();
    await start.pressSequentially('11/30/26');
    // Leaving the field is when the year is read (while typing it passes through 0002, 0020…).
    await dialog.getByLabel('Title', { exact: true }).click();
    await expect.poll(() => start.inputValue()).toBe('11/30/2026');
    expect(await dialog.getByLabel('End', { exact: true }).inputValue()).toBe('11/30/2026');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const [saved] = await s.eventsMatching('Flu shot');
    expect(saved).toMatchObject({ start_date: '2026-11-30 10:00:00', end_date: '2026-11-30 10:30:00' });
  });

  it('refuses a year outside 1900–2200 with a field error and saves nothing', async () => {
    const dialog = await newEvent('Far future');
    await dialog.getByLabel('Start', { exact: true }).fill('2999-05-01');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Enter a year between 1900 and 2200', { exact: false }).first().waitFor();
    expect(await dialog.getByLabel('Start', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await s.eventsMatching('Far future')).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await s.page.getByRole('button', { name: 'Discard' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('finds a time zone by city name and saves the one picked', async () => {
    const dialog = await newEvent('Call with the New York office');
    const zone = dialog.getByRole('combobox', { name: 'Time zone' });
    expect(await zone.inputValue()).toBe(BROWSER_ZONE);
    await zone.fill('New York');
    await dialog.getByRole('option', { name: /America\/New_York/ }).click();
    expect(await zone.inputValue()).toBe('America/New_York');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const [saved] = await s.eventsMatching('New York office');
    expect(saved.timezone).toBe('America/New_York');
  });

  it('does not save a time zone that was typed but not picked', async () => {
    const dialog = await newEvent('Lunch in Atlantis');
    const zone = dialog.getByRole('combobox', { name: 'Time zone' });
    await zone.fill('Atlantis');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Pick a time zone from the list', { exact: false }).waitFor();
    expect(await zone.getAttribute('aria-invalid')).toBe('true');
    // Still open, still what was typed, and nothing stored in the zone it had before.
    expect(await zone.inputValue()).toBe('Atlantis');
    expect(await s.eventsMatching('Atlantis')).toEqual([]);
    await zone.fill('Lisbon');
    await zone.press('Enter');
    expect(await zone.inputValue()).toBe('Europe/Lisbon');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await s.eventsMatching('Atlantis'))[0].timezone).toBe('Europe/Lisbon');
  });

  it('moves the end with the start, changes the length only from the end, and unticking All day gives an hour', async () => {
    const dialog = await newEvent('Piano lesson');
    const [startDate, startTime, endDate, endTime] = ['Start', 'Start time', 'End', 'End time'].map((n) => dialog.getByLabel(n, { exact: true }));
    await startDate.fill('2031-05-05');
    await startTime.fill('10:00');
    await endDate.fill('2031-05-05');
    await endTime.fill('11:30');
    await startTime.fill('14:00');
    expect(await hhmm(endTime)).toBe('15:30');
    await startDate.fill('2031-05-07');
    expect(await iso(endDate)).toBe('2031-05-07');
    expect(await hhmm(endTime)).toBe('15:30');
    await endTime.fill('16:00');
    expect(await hhmm(startTime)).toBe('14:00');

    await dialog.getByLabel('All day', { exact: true }).check();
    await dialog.getByLabel('All day', { exact: true }).uncheck();
    expect(await hhmm(startTime)).toBe('09:00');
    expect(await hhmm(endTime)).toBe('10:00');
    expect(await iso(endDate)).toBe('2031-05-07');
    await startTime.fill('14:00');
    await endTime.fill('16:00');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const [saved] = await s.eventsMatching('Piano lesson');
    expect(saved).toMatchObject({ start_date: '2031-05-07 14:00:00', end_date: '2031-05-07 16:00:00', all_day: false });
  });

  it('shows a refused save in plain words and marks the field', async () => {
    const dialog = await newEvent('Bake sale');
    await dialog.getByLabel('Website', { exact: true }).fill('not a web address');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).toContain('Website: Must be an absolute http or https URL.');
    expect(text).not.toMatch(/Invalid parameter/);
    expect(await dialog.getByLabel('Website', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await s.eventsMatching('Bake sale')).toEqual([]);
    await dialog.getByLabel('Website', { exact: true }).fill('https://bakesale.example.org');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await s.eventsMatching('Bake sale'))[0].website).toBe('https://bakesale.example.org');
  });

  it('reads like a calendar: publishing fields under one collapsed section, remembered open or closed', async () => {
    let dialog = await newEvent('Layout check');
    const featured = () => dialog.getByLabel('Featured', { exact: true });
    for (const name of ['Title', 'Start', 'Venue', 'Description']) expect(await dialog.getByLabel(name, { exact: true }).isVisible()).toBe(true);
    expect(await dialog.getByRole('combobox', { name: 'Categories' }).isVisible()).toBe(true);
    expect(await featured().isVisible()).toBe(false);
    await dialog.getByText('On the website', { exact: true }).click();
    expect(await featured().isVisible()).toBe(true);
    for (const name of ['Status', 'Sticky', 'Excerpt', 'Slug']) expect(await dialog.getByLabel(name, { exact: true }).isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await s.page.getByRole('button', { name: 'Discard' }).click();
    dialog = await newEvent('Layout check');
    expect(await featured().isVisible()).toBe(true);
    await dialog.getByText('On the website', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await s.page.getByRole('button', { name: 'Discard' }).click();
    dialog = await newEvent('Layout check');
    expect(await featured().isVisible()).toBe(false);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await s.page.getByRole('button', { name: 'Discard' }).click();
  });

  it('asks a venue’s address as people write it, with one state-or-province box', async () => {
    await s.page.getByRole('button', { name: 'Venues' }).click();
    await s.page.getByRole('button', { name: 'New venue' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'New venue' });
    const labels = await dialog.locator('.record-grid').first().locator('label').allInnerTexts();
    const wanted = ['Address', 'City', 'State or province', 'Postal code', 'Country'];
    expect(labels.filter((l) => wanted.includes(l))).toEqual(wanted);
    expect(await dialog.getByLabel('State', { exact: true }).isVisible()).toBe(false);
    expect(await dialog.getByLabel('Province', { exact: true }).isVisible()).toBe(false);
    await dialog.getByLabel('Venue name', { exact: true }).fill('Casa da Música');
    await dialog.getByLabel('Address', { exact: true }).fill('Av. da Boavista 604');
    await dialog.getByLabel('City', { exact: true }).fill('Porto');
    await dialog.getByLabel('State or province', { exact: true }).fill('Porto District');
    await dialog.getByLabel('Postal code', { exact: true }).fill('4149-071');
    await dialog.getByLabel('Country', { exact: true }).fill('Portugal');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const venue = ((await s.api('venues?search=Casa')).json.venues as Array<Record<string, unknown>>)[0];
    expect(venue).toMatchObject({ address: 'Av. da Boavista 604', city: 'Porto', stateprovince: 'Porto District', zip: '4149-071', country: 'Portugal' });
    await s.page.getByRole('button', { name: 'Calendar', exact: true }).click();
  });

  it('keeps a literal <b> from another calendar literal through an edit, read back from the API and in iCalendar', async () => {
    // Thunderbird's plain DESCRIPTION, imported as the iCalendar mapping reads any other client's.
    const ics = [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN',
      'BEGIN:VEVENT', 'UID:e2e-literal-b@tests', 'DTSTAMP:20260101T000000Z', 'DTSTART:20310410T100000Z', 'DTEND:20310410T110000Z',
      'SUMMARY:Markup lesson', 'DESCRIPTION:Use <b> & co', 'END:VEVENT', 'END:VCALENDAR', '',
    ].join('\r\n');
    const auth = { Authorization: `Bearer ${s.server.token}` };
    const imported = await fetch(`${s.server.url}/cal/events/v1/import`, { method: 'POST', headers: { ...auth, 'Content-Type': 'text/calendar' }, body: ics });
    expect(imported.status).toBe(200);
    const [before] = await s.eventsMatching('Markup lesson');
    expect(before.description).toBe('<p>Use &lt;b&gt; &amp; co</p>');

    await s.page.reload();
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-04-10');
    await s.page.getByRole('button', { name: /^(\S+ )?Markup lesson/ }).dblclick();
    const dialog = s.page.getByRole('dialog', { name: 'Edit event' });
    const description = dialog.getByLabel('Description', { exact: true });
    expect(await description.inputValue()).toBe('Use <b> & co');
    await description.fill('Use <b> & co\nfor bold, 1 < 2');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const [after] = await s.eventsMatching('Markup lesson');
    expect(after.description).toBe('<p>Use &lt;b&gt; &amp; co<br />\nfor bold, 1 &lt; 2</p>');
    // The details card reads it as the same text, the tag and all.
    await s.page.getByRole('button', { name: /^(\S+ )?Markup lesson/ }).click();
    const card = s.page.getByRole('dialog', { name: 'Markup lesson' });
    expect(await card.locator('.details-description').innerText()).toBe('Use <b> & co\nfor bold, 1 < 2');
    expect(await card.locator('.details-description b').count()).toBe(0);
    await s.page.keyboard.press('Escape');
    // And another calendar gets back the text as it was typed, as plain text with no HTML alternative.
    const exported = await (await fetch(`${s.server.url}/cal/events/v1/export?search=Markup%20lesson`, { headers: auth })).text();
    const unfolded = exported.replace(/\r\n[ \t]/g, '');
    expect(unfolded).toContain('DESCRIPTION:Use <b> & co\\nfor bold\\, 1 < 2\r\n');
    expect(unfolded).not.toContain('X-ALT-DESC');
  });

  it('raised no page errors', () => {
    expect(s.pageErrors).toEqual([]);
  });
});
