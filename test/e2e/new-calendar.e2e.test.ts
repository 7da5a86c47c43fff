/**
 * "New calendar…" in Chromium against the real server (its form is the one "Add account…" and
 * "Connect a website…" share): an empty name is told on the Name field and nothing is made, the
 * server's refusal is told on the field it names, and a good name makes the calendar, listed in
 * the sidebar with its show/hide checkbox.
 */
import { describe, expect, it } from 'vitest';
import { runBrowserSuites } from './browser';
import { e2eSuite, type Json } from './harness';

describe.skipIf(!runBrowserSuites)('New calendar… (e2e)', () => {
  const s = e2eSuite();
  const sidebar = () => s.page.getByRole('region', { name: 'Calendars' });
  const calendars = async () => ((await s.api('calendars')).json as unknown as Json[]).map((c) => c.name);

  it('an empty name stops Create; the server’s refusal is told on its field; a good name makes it', async () => {
    await sidebar().getByRole('button', { name: 'New calendar…' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'New calendar on this computer' });
    const name = dialog.getByLabel('Name', { exact: true });
    await name.waitFor();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    await dialog.getByText('This field is required.').waitFor();
    expect(await calendars()).toEqual(['On this computer']);

    // Longer than the server takes: its words, on the Name field.
    await name.fill('x'.repeat(201));
    expect(await name.getAttribute('aria-invalid')).not.toBe('true');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    const refused = await s.api('calendars', { method: 'POST', body: { name: 'x'.repeat(201) } });
    expect(refused.status).toBe(400);
    expect(await dialog.locator('.field-error').allInnerTexts()).toEqual([refused.json.data.params.name]);
    expect(await calendars()).toEqual(['On this computer']);

    await name.fill('Family');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await sidebar().getByRole('checkbox', { name: 'Family', exact: true }).waitFor();
    expect(await calendars()).toEqual(['On this computer', 'Family']);
  });
});
