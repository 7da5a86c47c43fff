/**
 * The two documents that describe the API, both generated from the route table and the shared
 * declarations so they cannot drift from what is served: the namespace index (the original's core
 * route listing) and `/doc` (OpenAPI 3).
 */
import { z } from 'zod';
import * as records from '../../../shared/api/records';
import * as importReports from '../../../shared/api/import-report';
import { languageParam } from '../../../shared/schema/queries';
import type { OpenApiType } from '../../../shared/schema/kinds';
import type { ArgDecl, RouteDef, Endpoint } from './route-table';
import { CONDITIONAL_HEADER } from './conditional';
import { SITE_ROUTES } from './site';

export const NAMESPACE = 'cal/events/v1';

function argSchema(d: ArgDecl, required: boolean) {
  const out: Record<string, unknown> = { ...d.kind.openapi };
  delete out.oneOf;
  out.description = d.description;
  if (d.default !== undefined) out.default = d.default;
  out.required = required;
  return out;
}

/** The namespace index: every route with its methods and arguments (reference §8.1). */
export function namespaceIndex(routes: RouteDef[], apiRoot: string) {
  const base = apiRoot.replace(/\/$/, '');
  const out: Record<string, unknown> = {};
  for (const r of routes) {
    const key = `/${NAMESPACE}${r.pattern}`;
    const entry: Record<string, unknown> = {
      namespace: NAMESPACE,
      methods: [...new Set(r.endpoints.flatMap((e) => e.methods))],
      endpoints: r.endpoints.map((e) => ({
        methods: e.methods,
        args: Object.fromEntries([
          ...r.pathParams.map((p) => [p.name, { type: p.type, description: p.description, required: true }]),
          ...Object.entries({ ...e.args, ...languageParam }).map(([name, d]) => [name, argSchema(d, !!(d.required && (e.creates || !e.body)))]),
        ]),
      })),
    };
    if (r.pathParams.length === 0) entry._links = { self: [{ href: `${base}${r.pattern}` }] };
    out[key] = entry;
  }
  return { namespace: NAMESPACE, routes: out, _links: { up: [{ href: base.replace(/\/cal\/events\/v1$/, '/') }] } };
}

let componentCache: Record<string, unknown> | undefined;

/** Component schemas of the records, from the zod declarations in shared/api/records.ts. */
function componentSchemas(): Record<string, unknown> {
  if (componentCache) return componentCache;
  const registry = z.registry<{ id: string }>();
  for (const s of [records.ImageSize, records.CostDetails, records.Term, records.EmbeddedTerm, records.Image, records.DateDetails, records.Event, records.Venue, records.Organizer, records.ApiErrorBody, importReports.ImportProblem, importReports.ImportReport, importReports.RestoreReport, importReports.ImportJob]) {
    registry.add(s, { id: (z.globalRegistry.get(s) as { id: string }).id });
  }
  const doc = z.toJSONSchema(registry, { target: 'openapi-3.0', uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'any' }) as { schemas: Record<string, Record<string, unknown>> };
  for (const s of Object.values(doc.schemas)) delete s.$id;
  componentCache = doc.schemas;
  return componentCache;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function responseSchema(shape: Endpoint['response']) {
  const lists: Record<string, [string, string]> = {
    EventList: ['events', 'Event'],
    VenueList: ['venues', 'Venue'],
    OrganizerList: ['organizers', 'Organizer'],
    CategoryList: ['categories', 'Term'],
    TagList: ['tags', 'Term'],
  };
  if (shape in lists) {
    const [key, item] = lists[shape];
    return {
      type: 'object',
      properties: {
        [key]: { type: 'array', items: ref(item) },
        rest_url: { type: 'string' },
        next_rest_url: { type: 'string' },
        previous_rest_url: { type: 'string' },
        total: { type: 'integer' },
        total_pages: { type: 'integer' },
      },
    };
  }
  if (shape === 'ConflictList') return { type: 'object', properties: { events: { type: 'array', items: ref('Event') } } };
  if (shape === 'ImportReport') return { oneOf: [ref('ImportReport'), ref('RestoreReport')] };
  if (shape === 'File') return { type: 'string', format: 'binary' };
  return shape === 'object' ? { type: 'object' } : ref(shape);
}

/** The media types a response comes in: files in theirs, everything else JSON. */
function content(shape: Endpoint['response']) {
  const schema = responseSchema(shape);
  if (shape === 'File') return { 'text/calendar': { schema }, 'application/json': { schema } };
  return { 'application/json': { schema } };
}

function schemaOf(t: OpenApiType): Record<string, unknown> {
  const out: Record<string, unknown> = { type: t.type };
  if (t.format) out.format = t.format;
  if (t.enum) out.enum = [...t.enum];
  if (t.items) out.items = schemaOf(t.items);
  if (t.minimum !== undefined) out.minimum = t.minimum;
  if (t.maximum !== undefined) out.maximum = t.maximum;
  if (t.oneOf) return { oneOf: t.oneOf.map(schemaOf) };
  return out;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'The record or list.',
  201: 'The created record.',
  202: 'Started in the background: the job, to follow at its `rest_url`.',
  400: 'A parameter is missing or not valid.',
  304: 'Not modified: the record still has the `ETag` sent in `If-None-Match` (Almanac extension).',
  401: 'The API token is missing or wrong (sent as `Authorization: Bearer <token>`, or as the password of HTTP Basic: `incorrect_password` when that is wrong).',
  412: 'The record changed since the client read it: `If-Match` names another `ETag`; nothing was changed (`rest_precondition_failed`, Almanac extension).',
  403: 'The record cannot be read by this caller, or the request came from another site.',
  404: 'No such record or page.',
  410: 'The record is already in the trash.',
  409: 'The name is taken already.',
  413: 'The body is larger than the limit.',
  422: 'The request was understood but cannot be done as asked (a CalDAV server refused the login, is not a CalDAV server, cannot be reached or did not answer in time); `data.field` names the field to fix.',
  503: 'Another process (a command-line import) held the calendar for longer than the server waits (30 s unless set otherwise); nothing was written. Retry after `Retry-After` seconds.',
};

/** The OpenAPI 3 document of the namespace (reference §8.2). */
export function openApiDocument(routes: RouteDef[], apiRoot: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (r.pattern === '') continue;
    const ops: Record<string, unknown> = {};
    for (const e of r.endpoints) {
      const pathParams = r.pathParams.map((p) => ({ name: p.name, in: 'path', description: p.description, schema: { type: p.type }, required: true }));
      const okStatus = e.creates ? 201 : 200;
      const responses: Record<string, unknown> = {
        [okStatus]: { description: STATUS_TEXT[okStatus], content: content(e.response) },
      };
      if (e.accepted) responses[202] = { description: STATUS_TEXT[202], content: content(e.accepted) };
      if (e.creates && e.dryRun) responses[200] = { description: `${STATUS_TEXT[200]} (dry_run: what would be made; nothing is saved)`, content: content(e.response) };
      const headerParams: Record<string, unknown>[] = [];
      if (e.record) {
        // Conditional requests on single records (Almanac extension, http/conditional.ts).
        (responses[okStatus] as Record<string, unknown>).headers = { ETag: ETAG_HEADER };
        const read = e.methods.includes('GET');
        if (read) {
          responses[304] = { description: STATUS_TEXT[304], headers: { ETag: ETAG_HEADER } };
          headerParams.push({ name: 'If-None-Match', in: 'header', required: false, description: 'Almanac extension: the record\'s `ETag` as last read; 304 when it has not changed since.', schema: { type: 'string' } });
        } else if (!e.creates) {
          responses[412] = { description: STATUS_TEXT[412], content: { 'application/json': { schema: ref('Error') } } };
          headerParams.push({ name: 'If-Match', in: 'header', required: false, description: 'Almanac extension: the record\'s `ETag` as last read (or `*`); the write is refused with 412 `rest_precondition_failed` when the record changed since.', schema: { type: 'string' } });
        }
      }
      // A write waits for another process's write lock, and gives up with 503 (dispatch.ts runWhenFree).
      for (const s of [...e.errors, ...(e.write ? [503] : []), 401]) {
        responses[s] = { description: STATUS_TEXT[s], content: { 'application/json': { schema: ref('Error') } } };
      }
      const query = Object.entries(e.body ? languageParam : { ...e.args, ...languageParam }).map(([name, d]) => {
        const param: Record<string, unknown> = { name, in: 'query', description: d.description, schema: { ...schemaOf(d.kind.openapi), ...(d.default !== undefined ? { default: d.default } : {}) }, required: !!d.required };
        if (d.kind.openapi.type === 'array') Object.assign(param, { style: 'form', explode: false });
        return param;
      });
      const op: Record<string, unknown> = { summary: e.summary, parameters: [...pathParams, ...query, ...headerParams], responses };
      if (e.body) {
        const properties = Object.fromEntries(Object.entries(e.args).map(([name, d]) => [name, { ...schemaOf(d.kind.openapi), description: d.description, ...(d.default !== undefined ? { default: d.default } : {}) }]));
        const required = e.creates ? Object.entries(e.args).filter(([, d]) => d.required).map(([n]) => n) : [];
        const schema = { type: 'object', properties, ...(required.length ? { required } : {}) };
        op.requestBody = { content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } } };
      }
      for (const m of e.methods) ops[m.toLowerCase()] = op;
    }
    paths[r.docPath] = ops;
  }
  return {
    openapi: '3.0.0',
    info: {
      version: '1.0.0',
      title: 'Almanac events API (cal/events/v1)',
      description: 'The REST API of the Almanac calendar: events, venues, organizers, categories and tags, in English, Brazilian Portuguese and Spanish.',
    },
    components: { schemas: componentSchemas(), securitySchemes: SECURITY_SCHEMES },
    security: [{ token: [] }, { applicationPassword: [] }],
    servers: [{ url: apiRoot }],
    paths,
    'x-almanac-site': siteExtensions(),
  };
}

const ETAG_HEADER = {
  description: 'Almanac extension: the version of the record as served (the same through every root and language); send it back in `If-Match` (writes) or `If-None-Match` (reads).',
  schema: { type: 'string' },
};

const SECURITY_SCHEMES = {
  token: { type: 'http', scheme: 'bearer', description: 'The API token (the `api-token` file in the data directory, or `--token`).' },
  applicationPassword: {
    type: 'http',
    scheme: 'basic',
    description:
      'Almanac extension: HTTP Basic with the API token as the password and any user name, as WordPress takes an application password, so its clients sign in unchanged. The same Host and Origin checks apply; a wrong password is `401 incorrect_password`. No answer carries a `WWW-Authenticate` challenge.',
  },
};

/**
 * What Almanac serves as a WordPress site, outside the namespace (http/site.ts): the site routes,
 * generated from their table, with the `?rest_route=` form and the headers that lead clients to them.
 */
function siteExtensions() {
  const paths: Record<string, unknown> = {};
  for (const r of SITE_ROUTES) {
    const responses = Object.fromEntries(Object.entries(r.statuses).map(([s, text]) => [s, { description: text, content: { 'application/json': { schema: Number(s) >= 400 ? ref('Error') : { type: 'object' } } } }]));
    paths[r.route === '/' ? '/wp-json/' : `/wp-json${r.route}`] = { get: { summary: r.summary, security: r.public ? [] : undefined, responses } };
  }
  return {
    description:
      'Almanac answers as a WordPress site with the events API (Almanac extensions). These paths are relative to the server\'s address, and are served under a language prefix too (`/pt-br/wp-json/`).',
    paths,
    rest_route:
      'Every address of the API and of these paths also answers in WordPress\'s plain-permalink form, `/?rest_route=/cal/events/v1/events&page=2` (or `/index.php?rest_route=…`, under a language prefix too): the same answer, with `rest_url` and `next_rest_url` built in the same form (query arguments follow with `&`).',
    headers: {
      Link: '`<…/wp-json/>; rel="https://api.w.org/"` on `GET /` and on every API answer, as WordPress sends it, so a client finds the API from the site\'s address.',
      [CONDITIONAL_HEADER]: '`1` on every API answer: single records answer an `ETag` and honour `If-Match` (412) and `If-None-Match` (304); the original does not.',
    },
  };
}
