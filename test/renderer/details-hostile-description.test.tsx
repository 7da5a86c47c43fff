// @vitest-environment happy-dom
/**
 * A description is stored and served as it came (the owner's own HTML, or a synced or imported
 * one, kept exactly: issue 25), as the original stores an administrator's (who has
 * unfiltered_html: wp_kses runs only for users without it). So the calendar is where it must be
 * made harmless: the details card shows a description's text only, read from an inert document,
 * and never puts its markup into the page, so no script, handler or frame of it can run or load.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import i18n from '../../renderer/src/i18n';
import { EventDetails } from '../../renderer/src/calendar/EventDetails';
import { useSettings } from '../../renderer/src/state/settings';
import { makeEvent } from './helpers';

beforeEach(async () => {
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
});
afterEach(cleanup);

const HOSTILE = [
  '<p>Doors at 7.</p>',
  '<script>window.__ranScript = 1</script>',
  '<img src="x" onerror="window.__ranHandler = 1">',
  '<svg onload="window.__ranSvg = 1"><a href="javascript:alert(1)">svg link</a></svg>',
  '<a href="javascript:window.__ranLink=1" onclick="window.__ranClick=1">Tickets</a>',
  '<p>Use &lt;script&gt; tags</p>',
].join('\n');

describe('a description with script in it, in the details card', () => {
  // happy-dom runs no script or handler, so what is checked is that none reaches the page; that
  // nothing runs in a browser is test/e2e/description-safety.e2e.test.ts.
  it('shows its text and nothing of its markup: no element of it reaches the page', () => {
    const { container } = render(<EventDetails event={makeEvent({ id: 9, title: 'Gig', description: HOSTILE })} />);
    const card = container.ownerDocument.body;
    const text = card.querySelector('.details-description');
    expect(text).not.toBeNull();
    expect(text!.textContent).toContain('Doors at 7.');
    expect(text!.textContent).toContain('Tickets');
    // What was escaped in the description is text, shown as typed.
    expect(text!.textContent).toContain('Use <script> tags');
    expect(text!.textContent).not.toContain('__ranScript');
    // Only text and the links the card makes of http(s) and mail addresses: none here.
    expect(text!.querySelectorAll('*')).toHaveLength(0);
    expect(card.querySelectorAll('script, iframe, object, embed, img, svg:not(.icon)')).toHaveLength(0);
    for (const el of Array.from(card.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) {
        expect(attr.name.startsWith('on'), `${el.tagName} ${attr.name}`).toBe(false);
        expect(attr.value.trim().toLowerCase().startsWith('javascript:'), `${el.tagName} ${attr.name}`).toBe(false);
      }
    }
    expect(screen.getByText('Gig')).toBeTruthy();
  });

  it("the app's page allows no inline script or handler, should markup ever reach it", () => {
    const html = readFileSync(join(import.meta.dirname, '../../renderer/index.html'), 'utf8');
    const policy = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
    const directives = new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
    const scripts = directives.get('script-src') ?? directives.get('default-src') ?? [];
    expect(scripts).toContain("'self'");
    expect(scripts.filter((s) => s === "'unsafe-inline'" || s === "'unsafe-eval'" || s === '*')).toEqual([]);
  });
});
