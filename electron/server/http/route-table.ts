/**
 * The shape of a route declaration. Every route of the namespace is one `RouteDef`; the dispatcher
 * matches requests against them, and the namespace index and `/doc` are generated from the same
 * list, so what is documented is exactly what is served.
 */
import type { Language } from '../../../shared/i18n/languages';
import type { ParamDef } from '../../../shared/schema/queries';
import type { Store } from '../store';
import type { Viewer } from '../store/posts';
import type { UrlContext } from '../serialize/context';
import type { WriteContext } from '../store/post-fields';
import type { SyncService } from '../caldav/service';
import type { SubscriptionService } from '../subscriptions/service';
import type { ImportJobs } from '../import-export/import-jobs';
import type { RecordKind } from './conditional';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A declared argument: the same shape as the shared field and parameter declarations. */
export type ArgDecl = ParamDef;

export interface ApiRequest {
  method: Method;
  /** Path parameters (`id`, `slug`), as matched. */
  path: Record<string, string>;
  /** Declared arguments, validated and normalised. */
  values: Record<string, unknown>;
  /** The raw parameters (query, merged with the body on writes). */
  raw: Record<string, unknown>;
  lang: Language;
  viewer: Viewer;
  url: UrlContext;
  now: Date;
  store: Store;
  /** Context for store writes made by this request. */
  write: WriteContext;
  /** The request body as sent, for endpoints that take a file (`rawBody`). */
  file?: Buffer;
  /** Opens a read-only connection on the same file, for long consistent reads (exports). */
  openReader: () => { store: Store; close: () => void };
  /** Imports running in the background, on threads of their own. */
  imports: ImportJobs;
  /** The CalDAV sync (issue 17); absent where no server runs it. */
  sync?: SyncService;
  /** iCalendar subscriptions (issue 17 item 7); absent where no server runs them. */
  subscriptions?: SubscriptionService;
}

export interface ApiResponse {
  status?: number;
  body?: unknown;
  /** The body as JSON already, in UTF-8 (records' cached JSON in a list); `body` is then unused. */
  json?: Buffer;
  headers?: Record<string, string>;
  /** A body sent in chunks (exports), with its content type; `body` is then unused. */
  stream?: { contentType: string; filename?: string; chunks: Iterable<string | Uint8Array> };
}

/** What a response body is, for `/doc`. */
export type ResponseShape = 'ImportReport' | 'ImportJob' | 'File' | 'Event' | 'Venue' | 'Organizer' | 'Term' | 'EventList' | 'VenueList' | 'OrganizerList' | 'CategoryList' | 'TagList' | 'ConflictList' | 'object';

export interface Endpoint {
  methods: Method[];
  summary: string;
  /** Query (GET, DELETE) or body (POST, PUT, PATCH) arguments. */
  args: Record<string, ArgDecl>;
  /** Arguments are read from the request body (writes) rather than the query. */
  body?: boolean;
  /** Creates a record: required body fields must be present (updates need none). */
  creates?: boolean;
  /** The body is a file (any content type, up to the import limit), not JSON fields. */
  rawBody?: boolean;
  /** Whether a token is needed even when the server allows public reads. */
  write: boolean;
  response: ResponseShape;
  /** What the endpoint answers when it starts work in the background (202 Accepted). */
  accepted?: ResponseShape;
  /** A creating endpoint whose `dry_run` answers 200 with the record it would make, saving nothing. */
  dryRun?: boolean;
  /**
   * The single record this endpoint reads or writes (by id or slug): its answers carry an `ETag`,
   * and `If-Match` / `If-None-Match` are honoured (http/conditional.ts).
   */
  record?: RecordKind;
  /** Statuses besides 200/201 this endpoint answers with, for `/doc`. */
  errors: number[];
  /** A promise when the work is done off the server's thread (an import): the answer comes when it settles. */
  handler(req: ApiRequest): ApiResponse | Promise<ApiResponse>;
}

export interface RouteDef {
  /** The pattern the original registers, as its namespace index shows it. */
  pattern: string;
  /** The OpenAPI path (`/events/{id}`). */
  docPath: string;
  regex: RegExp;
  pathParams: Array<{ name: string; type: 'integer' | 'string'; description: string }>;
  endpoints: Endpoint[];
}

const STRING_PARAMS: Record<string, string> = {
  job: 'Identifier of the import job, as `POST /import?background=true` answered it.',
  key: 'Key of a due reminder, as `GET /reminders/due` or the stream gave it.',
};

/** `'/events/{id}'` → the RouteDef fields derived from it. */
export function route(docPath: string, endpoints: Endpoint[]): RouteDef {
  const pathParams: RouteDef['pathParams'] = [];
  let pattern = '';
  let regex = '';
  for (const part of docPath.split('/').filter(Boolean)) {
    const m = /^\{(\w+)\}$/.exec(part);
    if (m && m[1] === 'id') {
      pathParams.push({ name: 'id', type: 'integer', description: 'Unique identifier of the record.' });
      pattern += '/(?P<id>\\d+)';
      regex += '/(\\d+)';
    } else if (m) {
      pathParams.push({ name: m[1], type: 'string', description: STRING_PARAMS[m[1]] ?? 'The slug of the record.' });
      pattern += `/(?P<${m[1]}>[^/]+)`;
      regex += '/([^/]+)';
    } else {
      pattern += `/${part}`;
      regex += `/${part.replace(/[-.]/g, (c) => `\\${c}`)}`;
    }
  }
  return { pattern, docPath: docPath || '/', regex: new RegExp(`^${regex}/?$`), pathParams, endpoints };
}
