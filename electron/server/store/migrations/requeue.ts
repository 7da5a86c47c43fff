/**
 * What queuing a resource already in the CalDAV outbox does: one more change to send, tried at
 * once, and the last attempt's error no longer the news.
 */
export const REQUEUE = 'ON CONFLICT DO UPDATE SET rev = rev + 1, attempts = 0, next_try_utc = NULL, error = NULL';
