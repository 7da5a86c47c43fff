/**
 * Sync errors are kept by message key (caldav/errors.ts) and worded when read, in the reader's
 * language: an account that failed through some of its calendars says so, then each one.
 */
import { describe, expect, it } from 'vitest';
import { errorText, storedCalendarErrors, storedError } from '../../../electron/server/caldav/errors';

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
});
