/**
 * The details card (issue #15, item 6): a click on an event shows what, when, where and who with
 * Edit, Delete and Duplicate; a double-click opens the editor; Enter and Escape work from the
 * keyboard without moving the page. Checked through the API where data changes.
 */
import { describe, expect, it } from 'vitest';
import { runBrowserSuites } from './browser';
import { e2eSuite, BROWSER_ZONE, type Json } from './harness';

describe.skipIf(!runBrowserSuites)('event details card (e2e)', () => {
  const s = e2eSuite();
  const event = (title: string) => s.page.getByRole('button', { name: new RegExp(`^(\\S+ )?${title}`) });
  let concertId = 0;

  it('shows title, time in words, venue with address and map, organizers, categories and the description as text', async () => {
    const venue = await s.api('venues', { method: 'POST', body: { venue: 'Town Hall', address: '1 Main St', city: 'Springfield', country: 'United States', geo_lat: 39.8017, geo_lng: -89.6436 } });
    const organizer = await s.api('organizers', { method: 'POST', body: { organizer: 'Arts Council', email: 'info@arts.example.org' } });
    const created = await s.api('events', {
      method: 'POST',
      body: {
        title: 'Spring concert',
        start_date: '2031-03-22 20:00:00',
        end_date: '2031-03-22 22:30:00',
        timezone: BROWSER_ZONE,
        venue: venue.json.id,
        organizer: [organizer.json.id],
        categories: ['Family'],
        description: '<p><b>Bring</b> a chair.</p><p>Doors at 7.</p>',
      },
    });
    expect(created.status).toBe(201);
    concertId = created.json.id;
    await s.page.getByLabel('Go to date', { exact: true }).fill('2031-03-22');
    await event('Spring concert').click();
    const card = s.page.getByRole('dialog', { name: 'Spring concert' });
    await card.waitFor();
    const text = await card.innerText();
    expect(text).toContain('Saturday, March 22, 2031');
    expect(text).toMatch(/8:00\sPM – 10:30\sPM/);
    for (const part of ['Town Hall', '1 Main St', 'Springfield', 'Arts Council', 'Family', 'Bring a chair.', 'Doors at 7.']) expect(text).toContain(part);
    expect(text).not.toContain('<b>');
    expect(await card.getByRole('link', { name: 'Open map' }).getAttribute('href')).toContain('mlat=39.8017');
    for (const name of ['Edit', 'Delete', 'Duplicate']) await card.getByRole('button', { name, exact: true }).waitFor();
  });

  it('closes with Escape, gives focus back to the event and leaves the page where it was', async () => {
    const before = await s.page.evaluate<number[]>('[window.scrollX, window.scrollY, document.scrollingElement.scrollTop]');
    await s.page.keyboard.press('Escape');
    await s.page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => s.page.evaluate<string>("document.activeElement?.textContent ?? ''")).toContain('Spring concert');
    expect(await s.page.evaluate<number[]>('[window.scrollX, window.scrollY, document.scrollingElement.scrollTop]')).toEqual(before);
    // And from the keyboard: Enter on the focused event opens the card again.
    await s.page.keyboard.press('Enter');
    await s.page.getByRole('dialog', { name: 'Spring concert' }).waitFor();
    await s.page.keyboard.press('Escape');
    await s.page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  it('opens the full editor from the card and on double-click', async () => {
    await event('Spring concert').click();
    await s.page.getByRole('dialog', { name: 'Spring concert' }).getByRole('button', { name: 'Edit', exact: true }).click();
    await s.page.getByRole('dialog', { name: 'Edit event' }).waitFor();
    expect(await s.page.getByRole('dialog', { name: 'Spring concert' }).count()).toBe(0);
    await s.page.keyboard.press('Escape');
    await s.page.getByRole('dialog').waitFor({ state: 'detached' });
    await event('Spring concert').dblclick();
    const editor = s.page.getByRole('dialog', { name: 'Edit event' });
    await editor.waitFor();
    expect(await editor.getByLabel('Title', { exact: true }).inputValue()).toBe('Spring concert');
    await s.page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
  });

  it('duplicates the event with its fields into a new one', async () => {
    await event('Spring concert').click();
    await s.page.getByRole('dialog', { name: 'Spring concert' }).getByRole('button', { name: 'Duplicate' }).click();
    const editor = s.page.getByRole('dialog', { name: 'New event' });
    await editor.getByLabel('Start', { exact: true }).fill('2031-03-29');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    const copies = (await s.eventsMatching('Spring concert')) as Json[];
    expect(copies.map((e) => e.start_date).sort()).toEqual(['2031-03-22 20:00:00', '2031-03-29 20:00:00']);
    const copy = copies.find((e) => e.id !== concertId)!;
    expect(copy).toMatchObject({ end_date: '2031-03-29 22:30:00', venue: { venue: 'Town Hall' } });
    expect(copy.organizer.map((o: Json) => o.organizer)).toEqual(['Arts Council']);
    expect(copy.categories.map((c: Json) => c.name)).toEqual(['Family']);
    expect(copy.description).toContain('Bring');
  });

  it('deletes from the card, to the trash', async () => {
    await event('Spring concert').first().click();
    const card = s.page.getByRole('dialog', { name: 'Spring concert' });
    await card.getByRole('button', { name: 'Delete', exact: true }).click();
    await card.waitFor({ state: 'detached' });
    await expect.poll(async () => (await s.api(`events/${concertId}`)).json.code).toBe('event-no-longer-available');
    expect(s.pageErrors).toEqual([]);
  });
});
