/**
 * Errors with the original API's codes and statuses. They carry message keys, not texts, so the
 * HTTP layer can word them in the request's language (the code never changes).
 */
import type { MessageKey } from '../../shared/i18n/messages';

export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    readonly messageKey: MessageKey,
    readonly vars: Record<string, string | number> = {},
    /** Extra keys of `data` (e.g. `term_id`), or per-parameter messages for rest_invalid_param. */
    readonly data: Record<string, unknown> = {},
    readonly invalid?: Record<string, MessageKey>,
    readonly missing?: string[],
    /** What each invalid parameter's words name (`{max}` of a length error). */
    readonly invalidVars?: Record<string, Record<string, string | number>>,
  ) {
    // These are answers, not failures: their stacks are never read, and capturing one was a
    // tenth of what answering a 404 cost.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${code}: ${messageKey}`);
    Error.stackTraceLimit = limit;
  }
}

/** 400 rest_invalid_param naming each bad parameter with the reason. */
export function invalidParams(
  params: Record<string, MessageKey>,
  details: Record<string, unknown> = {},
  vars?: Record<string, Record<string, string | number>>,
): ApiError {
  return new ApiError('rest_invalid_param', 400, 'rest_invalid_param', { params: Object.keys(params).join(', ') }, { details }, params, undefined, vars);
}

export function invalidParam(name: string, reason: MessageKey = 'invalid_param'): ApiError {
  return invalidParams({ [name]: reason });
}

export function missingParams(names: string[]): ApiError {
  return new ApiError('rest_missing_callback_param', 400, 'rest_missing_callback_param', { params: names.join(', ') }, {}, undefined, names);
}

export const noRoute = () => new ApiError('rest_no_route', 404, 'rest_no_route');

/**
 * 403 (a change not allowed, as the original answers one): the calendar is a subscription, whose
 * events only change at their source.
 */
export function readOnlyCalendar(name: string, url: string): ApiError {
  return new ApiError('calendar-read-only', 403, 'calendar-read-only', { name, url });
}

/**
 * The same 403 for a CalDAV calendar the account may only read (the server said so at discovery):
 * a change made here could never be sent, and would sit in the outbox failing.
 */
export function readOnlyServerCalendar(name: string): ApiError {
  return new ApiError('calendar-read-only', 403, 'calendar-read-only-server', { name });
}
