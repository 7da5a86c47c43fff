/** What a serialiser needs to know about the request: where the API and the site live. */
import type { Settings } from '../store/settings';

export interface UrlContext {
  /** `http://127.0.0.1:PORT`, the origin the request came in on. */
  origin: string;
  /** Absolute namespace root with a trailing slash (`BASE` in the reference). */
  apiRoot: string;
  settings: Settings;
}

export const permalink = (ctx: UrlContext, kind: 'event' | 'venue' | 'organizer', slug: string) => `${ctx.origin}/${kind}/${encodeURIComponent(slug)}/`;

export const globalId = (ctx: UrlContext, id: number) => `${ctx.settings.global_id_host}?id=${id}`;
