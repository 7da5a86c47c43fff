/**
 * Sync errors are kept by message key (caldav/errors.ts) and worded when read, in the reader's
 * language: an account that failed through some of its calendars says so, then each one.
 */
import { describe, expect, it } from 'vitest';
import { errorText, excerpt, storedCalendarErrors, storedError } from '../../../electron/server/caldav/errors';
import { SiteError } from '../../../electron/server/sites/errors';
import { ApiError } from '../../../electron/server/errors';

describe('stored sync errors in words', () => {
  it('an account failed through some calendars: the sentence first, then each calendar with its own error, in the language asked', () => {
    const stored = storedCalendarErrors([{ name: 'Work', error: storedError({ key: 'sync_calendar_gone', vars: { url: 'https://dav.example.com/work/' } }) }]);
    expect(errorText(stored, 'en')).toBe("Some of the account's calendars could not be synced. Work: The calendar is no longer on the server (https://dav.example.com/work/); it may have been deleted or renamed there.");
    expect(errorText(stored, 'es')).toBe('Algunos calendarios de la cuenta no se pudieron sincronizar. Work: El calendario ya no está en el servidor (https://dav.example.com/work/); puede que se haya borrado o renombrado allí.');
  });

  it('text kept before errors had keys stays as it was written', () => {
    expect(errorText('connection refused', 'pt-br')).toBe('connection refused');
    expect(errorText(null, 'en')).toBeNull();
  });

  it('a library error quoting a server is kept in Almanac words, with a short excerpt free of credentials and line breaks', () => {
    const basic = Buffer.from('alice:s3cret-Pässword').toString('base64');
    const leaky = new Error(`Collection query failed: 500 Internal Server Error. Raw response: Authorization: Basic ${basic}\nINFO forged`);
    const shown = errorText(storedError(leaky), 'en')!;
    expect(shown).toBe('The sync failed (Collection query failed: 500 Internal Server Error.). It is tried again at the next round.');
    // Old rows kept as plain text are shown the same way.
    expect(errorText(leaky.message, 'en')).toBe('Collection query failed: 500 Internal Server Error.');
    expect(excerpt(`proxy said\r\nWWW-Authenticate: Basic realm=x\u0007`)).toBe('proxy said …');
    expect(excerpt(`sent Bearer ${'a1B2'.repeat(8)} ok`)).toBe('sent … ok');
    expect(excerpt('x'.repeat(500)).length).toBe(120);
  });

  it('any error of Almanac\'s telling (a website\'s, the API\'s) is kept by key; any other only as an excerpt', () => {
    const site = storedError(new SiteError('busy', { host: 'example.org', status: 503 }));
    expect(errorText(site, 'pt-br')).toBe(new SiteError('busy', { host: 'example.org', status: 503 }).describe('pt-br'));
    const api = storedError(new ApiError('sync-site-not-found', 404, 'sync-site-not-found', { name: 'Blog' }));
    expect(errorText(api, 'es')).toBe('No hay ningún sitio web llamado "Blog".');
    const raw = storedError(new Error(`the site said\r\nAuthorization: Basic ${'a1B2'.repeat(8)}`));
    expect(raw).not.toContain('a1B2');
    expect(errorText(raw, 'en')).toContain('the site said');
  });
});
