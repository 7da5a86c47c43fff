/**
 * Venues and organizers: the records an event links to. Both are posts with a handful of plain
 * fields, so one implementation serves both, driven by their field declarations.
 */
import { venueFields, organizerFields, plainColumns } from '../../../shared/schema/resources';
import type { FieldSet } from '../../../shared/schema/resources';
import type { Language } from '../../../shared/i18n/languages';
import type { PostStatus } from '../../../shared/schema/kinds';
import { rowsByIds, statementCache, type DB } from './db';
import { createListCache, type DataStamp } from './derived-cache';
import { TABLE, type PostRow, type PostRegistry, type Viewer } from './posts';
import type { PostFieldWriter, Values, WriteContext } from './post-fields';
import { formatLocal } from '../../../shared/dates/format';
import { DateTime } from 'luxon';
import { fold, likePattern, searchWords } from './search-text';

export type LinkedKind = 'venue' | 'organizer';

export interface VenueRow extends PostRow {
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  stateprovince: string;
  website: string;
  show_map: number;
  show_map_link: number;
  geo_lat: number | null;
  geo_lng: number | null;
}

export interface OrganizerRow extends PostRow {
  phone: string;
  website: string;
  email: string;
}

export type LinkedRow = VenueRow | OrganizerRow;

export interface LinkedListQuery {
  lang: Language;
  statuses: PostStatus[];
  page: number;
  perPage: number;
  search?: string;
  event?: number;
  hasEvents?: boolean;
  onlyWithUpcoming?: boolean;
}

export const FIELDS: Record<LinkedKind, FieldSet> = { venue: venueFields, organizer: organizerFields };

/** Fields a venue/organizer search looks in (reference §4.2). */
const SEARCH_COLUMNS: Record<LinkedKind, string[]> = {
  venue: ['title', 'content', 'excerpt', 'address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],
  organizer: ['title', 'content', 'excerpt', 'phone', 'email', 'website'],
};

export function createLinkedPostStore(kind: LinkedKind, db: DB, registry: PostRegistry, writer: PostFieldWriter, stamp: DataStamp) {
  const table = TABLE[kind];
  const fields = FIELDS[kind];
  const stmt = statementCache(db);
  const lists = createListCache(stmt, stamp);

  function filterSql(q: LinkedListQuery, viewer: Viewer, now: Date): { whereSql: string; params: unknown[] } {
    const where: string[] = ['t.lang = ?', `t.status IN (${q.statuses.map(() => '?').join(',')})`];
    const params: unknown[] = [q.lang, ...q.statuses];
    if (q.search !== undefined) {
      const words = searchWords(q.search);
      if (words.length === 0) where.push('0');
      else {
        // Case and accents ignored, as the original's database collation does.
        const perColumn = SEARCH_COLUMNS[kind].map((c) => `(${words.map(() => `fold(t.${c}) LIKE ? ESCAPE '\\'`).join(' AND ')})`);
        where.push(`(${perColumn.join(' OR ')})`);
        for (let i = 0; i < SEARCH_COLUMNS[kind].length; i++) params.push(...words.map((w) => likePattern(fold(w))));
      }
    }
    const linkedEvents =
      kind === 'venue'
        ? 'SELECT 1 FROM events e WHERE e.venue_id = t.id'
        : 'SELECT 1 FROM event_organizers eo JOIN events e ON e.id = eo.event_id WHERE eo.organizer_id = t.id';
    if (q.event !== undefined) {
      where.push(`EXISTS (${linkedEvents} AND e.id = ?)`);
      params.push(q.event);
    }
    if (q.hasEvents !== undefined) {
      where.push(`${q.hasEvents ? '' : 'NOT '}EXISTS (${linkedEvents} AND e.status NOT IN ('draft', 'pending', 'trash'))`);
    }
    if (q.onlyWithUpcoming) {
      const visible = viewer.canEdit ? "e.status != 'trash'" : "e.status = 'publish'";
      where.push(`EXISTS (${linkedEvents} AND ${visible} AND e.start_utc >= ?)`);
      params.push(formatLocal(DateTime.fromJSDate(now, { zone: 'UTC' })));
    }
    return { whereSql: where.join(' AND '), params };
  }
  const byId = db.prepare<[number], LinkedRow>(`SELECT * FROM ${table} WHERE id = ?`);
  const bySlug = db.prepare<[string], LinkedRow>(`SELECT * FROM ${table} WHERE slug = ?`);
  const statusById = db.prepare<[number], string>(`SELECT status FROM ${table} WHERE id = ?`).pluck();
  const unlinkVenue = db.prepare('UPDATE events SET venue_id = NULL WHERE venue_id = ?');
  const unlinkOrganizer = db.prepare('DELETE FROM event_organizers WHERE organizer_id = ?');
  const deleteRow = db.prepare(`DELETE FROM ${table} WHERE id = ?`);
  const trashedIn = db.prepare<[string], number>(`SELECT id FROM ${table} WHERE lang = ? AND status = 'trash' ORDER BY id`).pluck();
  const dedupeColumns = plainColumns(fields).filter(([, c]) => c !== 'status' && c !== 'author');

  function insert(cols: Record<string, unknown>) {
    const keys = Object.keys(cols);
    stmt(`INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`).run(...keys.map((k) => cols[k]));
  }

  function updateColumns(id: number, cols: Record<string, unknown>) {
    const keys = Object.keys(cols);
    if (keys.length === 0) return;
    stmt(`UPDATE ${table} SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE id = ?`).run(...keys.map((k) => cols[k]), id);
  }

  /** An existing record (same language, not trashed) whose supplied fields all match, ignoring case. */
  function findDuplicate(values: Values, lang: Language): number | undefined {
    const where: string[] = ['lang = ?', "status != 'trash'"];
    const params: unknown[] = [lang];
    for (const [field, column] of dedupeColumns) {
      if (!(field in values)) continue;
      const v = values[field];
      if (typeof v === 'string') {
        where.push(`lower(trim(${column})) = lower(trim(?))`);
        params.push(v);
      } else if (v === null) {
        where.push(`${column} IS NULL`);
      } else {
        where.push(`${column} = ?`);
        params.push(typeof v === 'boolean' ? (v ? 1 : 0) : v);
      }
    }
    const row = stmt(`SELECT id FROM ${table} WHERE ${where.join(' AND ')} ORDER BY id LIMIT 1`).get(...params) as { id: number } | undefined;
    return row?.id;
  }

  return {
    kind,
    get(id: number): LinkedRow | undefined {
      return byId.get(id);
    },
    /** A record's status, to check a link to it: the whole row costs about ten times more to read. */
    statusOf(id: number): PostStatus | undefined {
      return statusById.get(id) as PostStatus | undefined;
    },
    /** Slugs are stored lower-case, so any case finds the record. */
    getBySlug(slug: string): LinkedRow | undefined {
      return bySlug.get(slug.toLowerCase());
    },
    /**
     * Creates a record, or returns an identical one that already exists (the original's
     * duplicate avoidance, reference §5.7). Call inside a write transaction.
     */
    create(values: Values, ctx: WriteContext): { id: number; reused: boolean } {
      const dup = findDuplicate(values, ctx.lang);
      if (dup !== undefined) return { id: dup, reused: true };
      const id = registry.allocate(kind);
      if (kind === 'venue') values = withStateProvince(values);
      insert({ id, ...writer.columns(kind, fields, values, id, ctx.siteZone, ctx) });
      return { id, reused: false };
    },
    update(id: number, values: Values, ctx: WriteContext): void {
      const existing = byId.get(id)!;
      if (kind === 'venue') values = withStateProvince(values, existing);
      const cols = writer.columns(kind, fields, values, id, ctx.siteZone, ctx, existing);
      updateColumns(id, cols);
      if (cols.status === 'trash' && existing.status !== 'trash') this.unlink(id);
    },
    /** Trashing unlinks the record from its events (only this one: reference correction 12). */
    trash(id: number, ctx: WriteContext): void {
      const existing = byId.get(id)!;
      updateColumns(id, writer.columns(kind, fields, { status: 'trash' }, id, ctx.siteZone, ctx, existing));
      this.unlink(id);
    },
    unlink(id: number): void {
      (kind === 'venue' ? unlinkVenue : unlinkOrganizer).run(id);
    },
    /** The trash of one language (Empty trash). */
    trashedIds(lang: string): number[] {
      return trashedIn.all(lang);
    },
    deleteForever(id: number): void {
      this.unlink(id);
      deleteRow.run(id);
      registry.release(id);
    },
    /** Every record of a language that is not in the trash, by id and name (quick add reads venues' names). */
    names(lang: Language): Array<{ id: number; name: string }> {
      return stmt(`SELECT id, title AS name FROM ${table} WHERE lang = ? AND status != 'trash' ORDER BY id`).all(lang) as Array<{ id: number; name: string }>;
    },
    byIds(ids: number[]): Map<number, LinkedRow> {
      return rowsByIds<LinkedRow>(stmt, table, ids);
    },
    /**
     * A page of ids, newest first, and the total (both remembered until the data changes). Only ids:
     * the page is usually served from the records' JSON cache, and making row objects costs more
     * than the query (about 30 µs a row).
     */
    list(q: LinkedListQuery, viewer: Viewer, now: Date): { ids: number[]; total: number } {
      const { whereSql, params } = filterSql(q, viewer, now);
      const total = lists.count(`SELECT count(*) AS n FROM ${table} t WHERE ${whereSql}`, params);
      const ids = lists.ids(`SELECT t.id FROM ${table} t WHERE ${whereSql} ORDER BY t.date_utc DESC, t.id DESC LIMIT ? OFFSET ?`, [...params, q.perPage, (q.page - 1) * q.perPage]);
      return { ids, total };
    },
  };
}

export type LinkedPostStore = ReturnType<typeof createLinkedPostStore>;

/** "United States" as the original compares it, in its translations and ours. */
const UNITED_STATES = new Set(['', 'us', 'usa', 'united states', 'estados unidos', 'estados unidos da américa', 'eua', 'ee. uu.', 'ee.uu.']);

/**
 * A venue's `stateprovince` as the original derives it when a write leaves it out or empty: the
 * state for a venue in the United States (or with no country), else the province. An update that
 * touches none of state, province and country keeps the stored one (Almanac's updates are partial).
 */
function withStateProvince(values: Values, existing?: LinkedRow): Values {
  const given = values.stateprovince;
  if (typeof given === 'string' && given.trim() !== '') return values;
  if (existing && given === undefined && !('state' in values) && !('province' in values) && !('country' in values)) return values;
  const text = (field: 'state' | 'province' | 'country') => {
    const v = field in values ? values[field] : (existing as VenueRow | undefined)?.[field];
    return typeof v === 'string' ? v.trim() : '';
  };
  const state = text('state');
  const province = text('province');
  const derived = state && UNITED_STATES.has(text('country').toLowerCase()) ? state : province;
  if (!derived && given === undefined && !existing) return values;
  return { ...values, stateprovince: derived };
}
