/**
 * The real CalDAV servers of caldav-processes.ts, for test files: every server a file started is
 * stopped, and its folder removed, when the file's tests end.
 */
import { afterAll } from 'vitest';
import { stopAll } from './caldav-processes';

export * from './caldav-processes';

afterAll(stopAll);
