import { describe, expect, it } from 'vitest';
import { denyAllPermissions, guardNavigation, navigationDecision } from '../../electron/main/navigation';
import { FakeSession, FakeWebContents, preventable } from './fake-electron';

const APP = 'http://127.0.0.1:4780';

function guarded() {
  const contents = new FakeWebContents();
  const opened: string[] = [];
  guardNavigation(contents, { appOrigin: APP, openExternal: async (url) => void opened.push(url) });
  return { contents, opened };
}

describe('navigation', () => {
  it('stays on the app’s own origin', () => {
    const { contents, opened } = guarded();
    expect(contents.navigate(`${APP}/event/dentist/`).prevented).toBe(false);
    expect(contents.navigate(`${APP}/?token=x`).prevented).toBe(false);
    expect(opened).toEqual([]);
  });

  it('refuses https://example.com in the window and opens it in the system browser', async () => {
    const { contents, opened } = guarded();
    expect(contents.navigate('https://example.com/').prevented).toBe(true);
    await Promise.resolve();
    expect(opened).toEqual(['https://example.com/']);
  });

  it('treats another port or host name as another site', async () => {
    const { contents, opened } = guarded();
    expect(contents.navigate('http://127.0.0.1:4781/').prevented).toBe(true);
    expect(contents.navigate('http://localhost:4780/').prevented).toBe(true);
    await Promise.resolve();
    expect(opened).toEqual(['http://127.0.0.1:4781/', 'http://localhost:4780/']);
  });

  it('refuses file:, javascript: and other schemes without opening anything', async () => {
    const { contents, opened } = guarded();
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'almanac-evil://x', 'data:text/html,<script>1</script>', 'about:blank']) {
      expect(contents.navigate(url).prevented, url).toBe(true);
    }
    await Promise.resolve();
    expect(opened).toEqual([]);
  });

  it('refuses redirects and sub-frame navigations elsewhere, and <webview>', () => {
    const { contents, opened } = guarded();
    const redirect = preventable({ url: 'https://evil.example/' });
    contents.emit('will-redirect', redirect);
    expect(redirect.defaultPrevented).toBe(true);
    const frame = preventable({ url: 'https://ads.example/', isMainFrame: false });
    contents.emit('will-frame-navigate', frame);
    expect(frame.defaultPrevented).toBe(true);
    const webview = preventable();
    contents.emit('will-attach-webview', webview, {}, {});
    expect(webview.defaultPrevented).toBe(true);
    expect(opened).toEqual([]);
  });

  it('never opens a new window: web links go to the browser, the rest is dropped', async () => {
    const { contents, opened } = guarded();
    expect(contents.windowOpenHandler!({ url: 'https://example.com/page' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'mailto:ana@example.com' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: `${APP}/` })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'file:///tmp/x.html' })).toEqual({ action: 'deny' });
    await Promise.resolve();
    expect(opened).toEqual(['https://example.com/page', 'mailto:ana@example.com']);
  });

  it('decides by origin, not by prefix', () => {
    expect(navigationDecision('http://127.0.0.1.evil.example:4780/', APP)).toBe('external');
    expect(navigationDecision('http://127.0.0.1:4780@evil.example/', APP)).toBe('external');
    expect(navigationDecision('not a url', APP)).toBe('refuse');
  });
});

describe('permissions', () => {
  it('denies every permission request and check', () => {
    const session = new FakeSession();
    denyAllPermissions(session);
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen']) expect(session.request(p), p).toBe(false);
    expect(session.permissionCheckHandler!({}, 'media')).toBe(false);
  });
});
