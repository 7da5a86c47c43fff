/**
 * The renderer's only way to the cal/events/v1 API.
 *
 * In Electron the preload hands us `window.almanac` (base URL + token); in a browser tab the page is
 * served by the API's own origin and the HttpOnly session cookie authenticates same-origin fetches.
 * Every request carries `i18n_language`, because the API scopes lists and creations by language.
 */
import type { Event, Organizer, Term, Venue } from '@shared/api/records';
import type { Language } from '@shared/i18n/languages';
import type { ImportJob } from '@shared/api/import-report';
import type { ImportFormat } from '@shared/import-format';
import type { DueJson, ReminderMessage, Snooze } from '@shared/api/due-reminders';
import { plusDays, viewerZone, wallTime } from '../lib/dates';

export type { Language };

/** A failure the user should read: `message` is the server's own wording, in the request language. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    /** `rest_invalid_param`: name → reason; `rest_missing_callback_param`: list of names. */
    readonly params?: Record<string, string> | string[],
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /**
   * Per-field reasons, for marking the offending inputs of a form. A venue or organizer the
   * request tried to create names its own bad fields in `details` (`venue.venue` is the venue's
   * name): those are marked instead of the whole venue.
   */
  get fieldErrors(): Record<string, string> {
    if (!this.params) return {};
    if (Array.isArray(this.params)) return Object.fromEntries(this.params.map((p) => [p, this.message]));
    const out: Record<string, string> = { ...this.params };
    const details = (this.data?.details ?? {}) as Record<string, { data?: { params?: unknown } }>;
    for (const [param, detail] of Object.entries(details)) {
      const own = detail?.data?.params;
      if (!own || typeof own !== 'object' || Array.isArray(own)) continue;
      delete out[param];
      for (const [k, text] of Object.entries(own)) if (typeof text === 'string') out[`${param}.${k}`] = text;
    }
    return out;
  }
}

export const isAbort = (e: unknown) => e instanceof DOMException && e.name === 'AbortError';

type QueryValue = string | number | boolean | null | undefined | Array<string | number>;
export type Query = Record<string, QueryValue>;

export interface ClientOptions {
  base: string;
  token?: string;
  language: () => Language;
  /** Text shown when the server cannot be reached at all (no API message exists then). */
  networkMessage?: () => string;
  fetch?: typeof fetch;
}

export function defaultBase(): string {
  if (typeof window !== 'undefined' && window.almanac?.apiBase) return window.almanac.apiBase;
  return new URL('/cal/events/v1/', location.origin).href;
}

export interface Range {
  start: Date;
  end: Date;
}

export interface EventFilters {
  categories: number[];
  tags: number[];
  venues: number[];
  organizers: number[];
  featured: boolean;
  search: string;
  /** The calendars shown (their ids), or null while all are: hidden calendars' events are never asked for. */
  calendars: number[] | null;
}

/** Every calendar hidden: there is nothing to ask the server for. */
export const nothingShown = (f: Pick<EventFilters, 'calendars'>) => f.calendars !== null && f.calendars.length === 0;

export const emptyFilters = (): EventFilters => ({
  categories: [],
  tags: [],
  venues: [],
  organizers: [],
  featured: false,
  search: '',
  calendars: null,
});

export type PostKind = 'events' | 'venues' | 'organizers';

export type { ImportFormat };

export interface ImportRequest {
  /** Left out, the server tells the format from the file's first characters. */
  format?: ImportFormat;
  /** What a CSV file holds. */
  kind?: PostKind;
  dryRun?: boolean;
  skipInvalid?: boolean;
}
export type TermKind = 'categories' | 'tags';

export interface ListPage<T> {
  items: T[];
  total: number;
  totalPages: number;
}

/** The API's maximum page size; larger values are clamped by the server anyway. */
export const PAGE_SIZE = 50;
/** Pages fetched at once after the first: enough to hide latency, few enough not to swamp the server. */
export const PAGE_CONCURRENCY = 4;

/** `Y-m-d H:i:s` of an instant on the calendar's clock (the Settings zone, which the server reads list bounds in). */
export function toApiDateTime(d: Date): string {
  return wallTime(d, viewerZone());
}

export class ApiClient {
  readonly base: string;
  private readonly opts: ClientOptions;
  private readonly fetchImpl: typeof fetch;

  constructor(opts: ClientOptions) {
    this.opts = opts;
    this.base = opts.base.endsWith('/') ? opts.base : `${opts.base}/`;
    this.fetchImpl = opts.fetch ?? ((...args) => fetch(...args));
  }

  url(path: string, query: Query = {}): string {
    const u = new URL(path.replace(/^\//, ''), this.base);
    for (const [k, v] of Object.entries(query)) {
      if (v === undefined || v === null || v === '') continue;
      if (Array.isArray(v)) {
        if (v.length) u.searchParams.set(k, v.join(','));
      } else u.searchParams.set(k, String(v));
    }
    if (!u.searchParams.has('i18n_language')) u.searchParams.set('i18n_language', this.opts.language());
    return u.href;
  }

  async request<T>(
    method: string,
    path: string,
    init: { query?: Query; body?: unknown; file?: Blob; signal?: AbortSignal } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.opts.token) headers.Authorization = `Bearer ${this.opts.token}`;
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    // A file goes as it is: the server sniffs its format, so no multipart wrapping.
    if (init.file) headers['Content-Type'] = 'application/octet-stream';
    let res: Response;
    try {
      res = await this.fetchImpl(this.url(path, init.query), {
        method,
        headers,
        body: init.file ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
        signal: init.signal,
        // Same-origin in a tab: the session cookie goes along; with a bridge the token does the work.
        credentials: 'same-origin',
      });
    } catch (e) {
      if (isAbort(e)) throw e;
      throw new ApiError(this.opts.networkMessage?.() ?? 'The Almanac server cannot be reached.', 0, 'network_error');
    }
    const text = await res.text();
    let json: unknown = undefined;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    if (!res.ok) {
      const body = (json ?? {}) as { code?: string; message?: string; data?: Record<string, unknown> };
      const data = body.data ?? {};
      throw new ApiError(
        body.message || `${res.status} ${res.statusText}`.trim(),
        res.status,
        body.code ?? `http_${res.status}`,
        data.params as ApiError['params'],
        data,
      );
    }
    return json as T;
  }

  get<T>(path: string, query?: Query, signal?: AbortSignal) {
    return this.request<T>('GET', path, { query, signal });
  }
  post<T>(path: string, body: unknown, query?: Query) {
    return this.request<T>('POST', path, { body, query });
  }
  patch<T>(path: string, body: unknown, query?: Query) {
    return this.request<T>('PATCH', path, { body, query });
  }
  del<T>(path: string, query?: Query) {
    return this.request<T>('DELETE', path, { query });
  }

  /** Starts a background import of `file`; the job's `rest_url` tells its progress. */
  startImport(file: Blob, options: ImportRequest): Promise<ImportJob> {
    return this.request<ImportJob>('POST', 'import', {
      file,
      query: { background: true, format: options.format, kind: options.kind, dry_run: options.dryRun, skip_invalid: options.skipInvalid },
    });
  }

  /** How a background import is doing now. */
  importJob(job: ImportJob): Promise<ImportJob> {
    return this.get<ImportJob>(this.jobPath(job));
  }

  cancelImport(job: ImportJob): Promise<ImportJob> {
    return this.del<ImportJob>(this.jobPath(job));
  }

  private jobPath(job: ImportJob): string {
    return `import/jobs/${encodeURIComponent(job.id)}`;
  }

  /**
   * Every page of a list: page 1 first (it tells how many there are), then the rest a few at a
   * time. A page that vanished meanwhile (records deleted under us) counts as empty.
   */
  async listAll<T>(collection: string, key: string, query: Query = {}, signal?: AbortSignal): Promise<T[]> {
    type Envelope = Record<string, unknown> & { total_pages?: number };
    const first = await this.get<Envelope>(collection, { ...query, per_page: PAGE_SIZE, page: 1 }, signal);
    const pages: T[][] = [(first[key] as T[]) ?? []];
    const totalPages = Number(first.total_pages ?? 1);
    let next = 2;
    const worker = async () => {
      while (next <= totalPages) {
        const page = next++;
        try {
          const r = await this.get<Envelope>(collection, { ...query, per_page: PAGE_SIZE, page }, signal);
          pages[page - 1] = (r[key] as T[]) ?? [];
        } catch (e) {
          if (e instanceof ApiError && e.status === 404) pages[page - 1] = [];
          else throw e;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PAGE_CONCURRENCY, Math.max(0, totalPages - 1)) }, worker));
    return pages.flat();
  }

  /**
   * The events a calendar range shows, with the filters as the API's list parameters.
   * The one place that knows how a range becomes a query, so a dedicated range endpoint can take
   * over later. `start_date`/`end_date` would keep only events lying wholly inside the range and
   * lose a conference that began last week; asking for events that start before the range ends and
   * end after it starts (`starts_before` + `ends_after`, exact times) is what a calendar shows.
   */
  fetchEventsInRange(range: Range, filters: EventFilters, signal?: AbortSignal): Promise<Event[]> {
    if (nothingShown(filters)) return Promise.resolve([]);
    return this.listAll<Event>('events', 'events', rangeQuery(range, filters), signal);
  }

  // --- events ---
  getEvent(id: number) {
    return this.get<Event>(`events/${id}`);
  }
  createEvent(body: Record<string, unknown>) {
    return this.post<Event>('events', body);
  }
  /** `scope` is the API's `recurrence_scope` for an occurrence of a series (omitted: that occurrence only). */
  updateEvent(id: number, body: Record<string, unknown>, scope?: 'this' | 'following' | 'all') {
    return this.patch<Event>(`events/${id}`, body, { recurrence_scope: scope });
  }

  // --- posts (events, venues, organizers): trash, restore, delete for good ---
  trash<T = unknown>(kind: PostKind, id: number, scope?: 'this' | 'following' | 'all') {
    return this.del<T>(`${kind}/${id}`, { recurrence_scope: scope });
  }
  restore<T = unknown>(kind: PostKind, id: number) {
    return this.post<T>(`${kind}/${id}`, { status: 'publish' });
  }
  deleteForever<T = unknown>(kind: PostKind, id: number) {
    return this.del<T>(`${kind}/${id}`, { force: true });
  }
  /** Everything of `kind` in the trash of the records language, deleted for good at once. */
  emptyTrash(kind: PostKind) {
    return this.del<{ kind: PostKind; deleted: number }>('trash', { kind });
  }
  listTrash<T>(kind: PostKind): Promise<T[]> {
    return this.listAll<T>(kind, kind, { status: 'trash', ...(kind === 'events' ? { start_date: '1970-01-01', end_date: '2200-12-31' } : {}) });
  }

  // --- reminders (issue 16) ---
  dueReminders() {
    return this.get<{ reminders: DueJson[] }>('reminders/due').then((r) => r.reminders);
  }
  snoozeReminder(key: string, how: Snooze) {
    return this.post<DueJson>(`reminders/${encodeURIComponent(key)}/snooze`, { for: how });
  }
  dismissReminder(key: string) {
    return this.post<{ key: string; dismissed: boolean }>(`reminders/${encodeURIComponent(key)}/dismiss`, {});
  }

  /**
   * Reads the reminders' server-sent events until the server ends the stream or `signal` aborts.
   * Through fetch rather than EventSource: it carries the token (the desktop window) or the
   * session cookie (a tab) exactly as every other request does. `onOpen` runs once it is answered.
   */
  async reminderStream(onMessage: (m: ReminderMessage) => void, onOpen: () => void, signal: AbortSignal): Promise<void> {
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    if (this.opts.token) headers.Authorization = `Bearer ${this.opts.token}`;
    const res = await this.fetchImpl(this.url('reminders/stream'), { headers, signal, credentials: 'same-origin', cache: 'no-store' });
    if (!res.ok || !res.body) throw new ApiError(`${res.status} ${res.statusText}`.trim(), res.status, `http_${res.status}`);
    onOpen();
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      for (let end = buffer.search(/\r?\n\r?\n/); end >= 0; end = buffer.search(/\r?\n\r?\n/)) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const message = parseEvent(block);
        if (message) onMessage(message);
      }
    }
  }

  // --- venues, organizers ---
  listVenues(search?: string) {
    return this.listAll<Venue>('venues', 'venues', { search: search || undefined });
  }
  listOrganizers(search?: string) {
    return this.listAll<Organizer>('organizers', 'organizers', { search: search || undefined });
  }
  save<T>(kind: PostKind | TermKind, id: number | undefined, body: Record<string, unknown>) {
    return id ? this.patch<T>(`${kind}/${id}`, body) : this.post<T>(kind, body);
  }

  // --- terms ---
  listTerms(kind: TermKind, search?: string) {
    return this.listAll<Term>(kind, kind, { hide_empty: false, search: search || undefined });
  }
  deleteTerm(kind: TermKind, id: number) {
    return this.del<Term>(`${kind}/${id}`);
  }
}

/** One server-sent event block (`event: due` + `data: {...}`); comments and unknown events give nothing. */
export function parseEvent(block: string): ReminderMessage | undefined {
  const data = block
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n');
  if (!data) return undefined;
  try {
    const m = JSON.parse(data) as ReminderMessage;
    return m && (m.type === 'due' || m.type === 'missed') ? m : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The query of one range. Bounds are wall times on the calendar's clock, the zone the server reads
 * them in when one is chosen (else the computer's, the server's too); a day of margin each side
 * covers events kept in other zones (the server compares their local times) and the calendar
 * clips what falls outside.
 */
export function rangeQuery(range: Range, f: EventFilters): Query {
  return {
    ends_after: toApiDateTime(plusDays(range.start, -1)),
    starts_before: toApiDateTime(plusDays(range.end, 1)),
    strict_dates: true,
    categories: f.categories,
    tags: f.tags,
    venue: f.venues,
    organizer: f.organizers,
    featured: f.featured ? true : undefined,
    search: f.search.trim() || undefined,
    // The search box also finds events by their venue and organizers (an Almanac extension).
    search_places: f.search.trim() ? true : undefined,
    calendar: f.calendars ?? undefined,
  };
}
