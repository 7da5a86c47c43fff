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
  401: 'The API token is missing or wrong.',
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
      // A write waits for another process's write lock, and gives up with 503 (dispatch.ts runWhenFree).
      for (const s of [...e.errors, ...(e.write ? [503] : []), 401]) {
        responses[s] = { description: STATUS_TEXT[s], content: { 'application/json': { schema: ref('Error') } } };
      }
      const query = Object.entries(e.body ? languageParam : { ...e.args, ...languageParam }).map(([name, d]) => {
        const param: Record<string, unknown> = { name, in: 'query', description: d.description, schema: { ...schemaOf(d.kind.openapi), ...(d.default !== undefined ? { default: d.default } : {}) }, required: !!d.required };
        if (d.kind.openapi.type === 'array') Object.assign(param, { style: 'form', explode: false });
        return param;
      });
      const op: Record<string, unknown> = { summary: e.summary, parameters: [...pathParams, ...query], responses };
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
    components: { schemas: componentSchemas() },
    servers: [{ url: apiRoot }],
    paths,
  };
}
