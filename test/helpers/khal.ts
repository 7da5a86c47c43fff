/**
 * vdirsyncer and khal (khal-processes.ts) for test files: every client folder a file made is
 * removed when its tests end. As with the CalDAV servers, a machine without the programs skips
 * the suites that need them and says why; under CI (which installs them) their absence fails.
 */
import { afterAll } from 'vitest';
import { CLIENT_PACKAGES, haveThirdClients, thirdClient as make, type ThirdClient } from './khal-processes';

export * from './khal-processes';

/** Whether a suite that needs vdirsyncer and khal runs: with them, or under CI where their absence must fail. */
export const runThirdClientSuites = haveThirdClients || !!process.env.CI;

if (!runThirdClientSuites) console.warn(`[khal] skipped: vdirsyncer and khal are missing (apt-get install ${CLIENT_PACKAGES}). Under CI this fails instead.`);

const made: ThirdClient[] = [];
afterAll(() => {
  for (const c of made.splice(0)) c.remove();
});

/** A vdirsyncer + khal pair on `calendarUrl`, removed when the file's tests end. */
export function thirdClient(calendarUrl: string, user: string, password: string): ThirdClient {
  const c = make(calendarUrl, user, password);
  made.push(c);
  return c;
}
