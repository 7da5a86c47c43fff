/**
 * The real CalDAV servers of caldav-processes.ts, for test files: every server a file started is
 * stopped, and its folder removed, when the file's tests end. As with the browser suites, a
 * machine without the servers skips the suites that need them and says why; under CI (which
 * installs them) a missing server fails the run instead.
 */
import { afterAll } from 'vitest';
import { CALDAV_PACKAGES, haveCalDavServers, stopAll } from './caldav-processes';

export * from './caldav-processes';

/** Whether a suite that needs the servers runs: with them, or under CI where their absence must fail. */
export const runCalDavSuites = haveCalDavServers || !!process.env.CI;

if (!runCalDavSuites) console.warn(`[caldav] skipped: the CalDAV test servers are missing (apt-get install ${CALDAV_PACKAGES}). Under CI this fails instead.`);

afterAll(stopAll);
