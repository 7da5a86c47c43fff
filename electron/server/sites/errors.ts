/**
 * What went wrong talking to a website, as a kind a program branches on (try again later, ask
 * for the password, fix the address) and a message key the user reads in their language, with
 * the field of the "Connect a website" form to fix. Never carries the password.
 */
import { message, type MessageKey } from '../../../shared/i18n/messages';
import type { Language } from '../../../shared/i18n/languages';
import { classifyNetworkError } from '../caldav/errors';

export type SiteErrorKind =
  | 'bad_url'
  | 'unauthorized'
  | 'anonymous'
  | 'not_found'
  | 'api_off'
  | 'blocked'
  | 'unreachable'
  | 'tls'
  | 'timeout'
  | 'busy'
  | 'server_error'
  | 'bad_answer'
  | 'too_large';

const KEYS: Record<SiteErrorKind, MessageKey> = {
  bad_url: 'site_bad_url',
  unauthorized: 'site_unauthorized',
  anonymous: 'site_anonymous',
  not_found: 'site_not_found',
  api_off: 'site_api_off',
  blocked: 'site_blocked',
  unreachable: 'site_unreachable',
  tls: 'site_tls',
  timeout: 'site_timeout',
  busy: 'site_busy',
  server_error: 'site_server_error',
  bad_answer: 'site_bad_answer',
  too_large: 'site_too_large',
};

/** The API's error code (in /doc) and the form field each kind is told on. */
export const SITE_ERROR_CODES: Record<SiteErrorKind, { code: string; field: 'url' | 'password' | 'user' }> = {
  bad_url: { code: 'rest_invalid_param', field: 'url' },
  unauthorized: { code: 'site-unauthorized', field: 'password' },
  anonymous: { code: 'site-anonymous', field: 'url' },
  not_found: { code: 'site-not-found', field: 'url' },
  api_off: { code: 'site-not-found', field: 'url' },
  blocked: { code: 'site-blocked', field: 'url' },
  unreachable: { code: 'site-unreachable', field: 'url' },
  tls: { code: 'site-unreachable', field: 'url' },
  timeout: { code: 'site-unreachable', field: 'url' },
  busy: { code: 'site-unreachable', field: 'url' },
  server_error: { code: 'site-unreachable', field: 'url' },
  bad_answer: { code: 'site-blocked', field: 'url' },
  too_large: { code: 'site-blocked', field: 'url' },
};

export class SiteError extends Error {
  readonly messageKey: MessageKey;
  constructor(
    readonly kind: SiteErrorKind,
    readonly vars: Record<string, string | number>,
    /** The HTTP status behind it, when there was an answer. */
    readonly status?: number,
    /** How long the site asked to be left alone (Retry-After), in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message('en', KEYS[kind], vars));
    this.name = 'SiteError';
    this.messageKey = KEYS[kind];
  }
  /** Worth trying again later by itself (network, an overloaded or failing site); false: the user must act. */
  get transient(): boolean {
    return ['unreachable', 'timeout', 'busy', 'server_error', 'bad_answer', 'too_large'].includes(this.kind);
  }
  describe(lang: Language): string {
    return message(lang, this.messageKey, this.vars);
  }
}

/** A request that got no HTTP answer, as a SiteError. */
export function fromNetwork(err: unknown, host: string, timeoutMs: number): SiteError {
  if (err instanceof SiteError) return err;
  const failure = classifyNetworkError(err);
  if (failure.kind === 'timeout') return new SiteError('timeout', { host, seconds: Math.round(timeoutMs / 1000) });
  return new SiteError(failure.kind, { host, reason: failure.reason });
}
