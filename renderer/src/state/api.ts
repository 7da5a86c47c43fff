/** The one API client of the app, built lazily so tests can put their own in first. */
import { ApiClient, defaultBase } from '../api/client';
import i18n from '../i18n';
import { useSettings } from './settings';

let client: ApiClient | null = null;

export function api(): ApiClient {
  if (!client) {
    client = new ApiClient({
      base: defaultBase(),
      token: typeof window !== 'undefined' ? window.almanac?.token : undefined,
      language: () => useSettings.getState().contentLanguage,
      networkMessage: () => i18n.t('errors.network'),
    });
  }
  return client;
}

export function setApiClient(c: ApiClient | null): void {
  client = c;
}
