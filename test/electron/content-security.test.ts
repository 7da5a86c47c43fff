/**
 * The window's Content-Security-Policy, and a check that the built calendar UI works under it:
 * no inline script, nothing loaded from elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentSecurityPolicy, installContentSecurityPolicy, withContentSecurityPolicy } from '../../electron/main/content-security';
import { FakeSession, ROOT } from './fake-electron';

const APP = 'http://127.0.0.1:4780';

function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
}

describe('Content-Security-Policy', () => {
  it('allows scripts and API calls from the local server only', () => {
    const d = directives(contentSecurityPolicy(APP));
    expect(d['default-src']).toEqual(["'self'"]);
    expect(d['script-src']).toEqual(["'self'"]);
    expect(d['connect-src']).toEqual([APP]);
    expect(d['object-src']).toEqual(["'none'"]);
    expect(d['base-uri']).toEqual(["'none'"]);
    expect(d['frame-ancestors']).toEqual(["'none'"]);
    expect(d['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(d['img-src']).toEqual(expect.arrayContaining(["'self'", 'data:', 'https:', 'file:']));
    expect(contentSecurityPolicy(APP)).not.toMatch(/unsafe-eval|\*/);
  });

  it('is added to every response from the server’s origin in the window’s session', () => {
    const session = new FakeSession();
    const policy = installContentSecurityPolicy(session, APP);
    expect(session.responseHeaders(`${APP}/`, { 'Content-Type': ['text/html'] })).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [policy] });
    expect(session.responseHeaders(`${APP}/assets/index.js`)).toEqual({ 'Content-Security-Policy': [policy] });
    // Anything else passes unchanged.
    expect(session.responseHeaders('http://127.0.0.1:4781/', { A: ['1'] })).toEqual({ A: ['1'] });
    expect(session.responseHeaders('https://images.example.org/x.jpg', { A: ['1'] })).toEqual({ A: ['1'] });
  });

  it('keeps a policy the server sent (every policy is enforced, so this only narrows)', () => {
    expect(withContentSecurityPolicy({ 'content-security-policy': "default-src 'none'" }, 'P')).toEqual({ 'content-security-policy': ["default-src 'none'", 'P'] });
  });
});

const RENDERER = join(ROOT, 'out', 'renderer');
const built = existsSync(join(RENDERER, 'index.html'));
if (!built) console.warn('[electron] skipped the built-renderer CSP check: out/renderer is missing (npm run build; npm test builds first).');

describe.skipIf(!built)('the built calendar UI under that policy', () => {
  const html = built ? readFileSync(join(RENDERER, 'index.html'), 'utf8') : '';

  it('has no inline script and loads its scripts and styles from its own origin', () => {
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc="\.?\/assets\//);
      expect(body.trim()).toBe('');
    }
    for (const [, href] of html.matchAll(/<link\b[^>]*href="([^"]+)"/gi)) expect(href).toMatch(/^(\.?\/assets\/|data:)/);
    expect(html).not.toMatch(/\son[a-z]+="/i); // no inline event handlers
  });

  it('does not fetch anything at load time from another origin', () => {
    const assets = readdirSync(join(RENDERER, 'assets'));
    const css = assets.filter((f) => f.endsWith('.css')).map((f) => readFileSync(join(RENDERER, 'assets', f), 'utf8')).join('\n');
    for (const [, url] of css.matchAll(/url\(\s*['"]?([^'")]+)/g)) expect(url).toMatch(/^(data:|\.?\/|[^:]+$)/);
    expect(css).not.toMatch(/@import\s+url\(\s*['"]?https?:/);
  });
});
