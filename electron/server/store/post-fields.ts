/**
 * Writing the publication fields every post kind has: author, status, dates, slug, image,
 * translation link, and the plain columns its field declarations map.
 */
import type { FieldSet } from '../../../shared/schema/resources';
import { plainColumns } from '../../../shared/schema/resources';
import type { ImageInput, PostStatus } from '../../../shared/schema/kinds';
import { NO_LANGUAGE, type Language, type RecordLanguage } from '../../../shared/i18n/languages';
import { DateTime } from 'luxon';
import { parseDate } from '../../../shared/dates/parse';
import { zoneFor } from '../../../shared/dates/zones';
import { formatLocal, utcToLocal } from '../../../shared/dates/format';
import { invalidParam } from '../errors';
import type { PostKind, PostRegistry, PostRow } from './posts';
import type { ImageStore } from './images';
import type { DB } from './db';
import { BoundedMemo } from './bounded-memo';

export interface WriteContext {
  /** Language of the request: a created record belongs to it. */
  lang: Language;
  now: Date;
  siteZone: string;
  /**
   * The language a created event gets when not `lang`: NO_LANGUAGE for events that have none of
   * their own (a sync's, a subscription's, a file's that says nothing of it). Venues, organizers
   * and terms always get `lang`.
   */
  eventLang?: RecordLanguage;
}

export type Values = Record<string, unknown>;

/** Each field set's plain columns, worked out once: an import asks for them per event. */
const columnsOf = new WeakMap<FieldSet, ReadonlyArray<[field: string, column: string]>>();

/** Column values of the plain fields present in `values` (booleans stored as 0/1). */
export function plainValues(fields: FieldSet, values: Values): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let columns = columnsOf.get(fields);
  if (!columns) columnsOf.set(fields, (columns = plainColumns(fields)));
  for (const [field, column] of columns) {
    if (!(field in values)) continue;
    const v = values[field];
    out[column] = typeof v === 'boolean' ? (v ? 1 : 0) : v;
  }
  return out;
}

export function createPostFieldWriter(db: DB, registry: PostRegistry, images: ImageStore) {
  const userExists = db.prepare<[number], { id: number }>('SELECT id FROM users WHERE id = ?');

  // "Now" in UTC and UTC times shown in a zone: pure functions of their inputs, asked again for
  // every post of a bulk write (the same "now", the same site zone), so remembered (bounded).
  let nowMs = NaN;
  let nowUtcText = '';
  const localMemo = new BoundedMemo<string>(5000);
  function utcNow(now: Date): string {
    const ms = now.getTime();
    if (ms !== nowMs) {
      nowUtcText = formatLocal(dateInZone(now, 'UTC'));
      nowMs = ms;
    }
    return nowUtcText;
  }
  function localOfUtc(utc: string, zone: string): string {
    return localMemo.get(`${zone}\u0000${utc}`, () => utcToLocal(utc, zone));
  }

  function parsePublished(name: string, value: unknown, zone: string, now: Date) {
    const dt = parseDate(value as string | number, { zone, now });
    if (!dt) throw invalidParam(name, 'invalid_date');
    return dt;
  }

  return {
    /**
     * Columns of the post table for a create (no `existing`) or an update. `zone` reads
     * publication dates given without a zone: the event's zone, or the site's.
     */
    columns(kind: PostKind, fields: FieldSet, values: Values, id: number, zone: string, ctx: WriteContext, existing?: PostRow) {
      const cols: Record<string, unknown> = plainValues(fields, values);
      const nowUtc = utcNow(ctx.now);
      cols.modified_utc = nowUtc;
      cols.modified_local = localOfUtc(nowUtc, ctx.siteZone);

      if (values.author !== undefined && !userExists.get(values.author as number)) throw invalidParam('author', 'invalid_author');
      if (values.image !== undefined) cols.image_id = images.resolve(values.image as ImageInput);

      // `date` is read in the record's zone but, like every `date`/`modified`, shown site-local.
      if (values.date_utc !== undefined) {
        const dt = parsePublished('date_utc', values.date_utc, 'UTC', ctx.now);
        cols.date_utc = formatLocal(dt.setZone('UTC'));
      } else if (values.date !== undefined) {
        const dt = parsePublished('date', values.date, zone, ctx.now);
        cols.date_utc = formatLocal(dt.setZone('UTC'));
      } else if (!existing) {
        cols.date_utc = nowUtc;
      }
      if (cols.date_utc !== undefined) cols.date_local = localOfUtc(cols.date_utc as string, ctx.siteZone);

      const title = (values[titleField(kind)] as string | undefined) ?? existing?.title ?? '';
      if (values.slug !== undefined) cols.slug = registry.uniqueSlug(kind, values.slug as string, id);
      else if (!existing) cols.slug = registry.uniqueSlug(kind, title, id);

      const lang = existing?.lang ?? (kind === 'event' && ctx.eventLang !== undefined ? ctx.eventLang : ctx.lang);
      if (!existing) {
        cols.lang = lang;
        cols.translation_group = id;
        cols.status ??= 'publish';
      }
      // An event without a language of its own is in every language: it translates none.
      if (values.translation_of !== undefined && lang !== NO_LANGUAGE) {
        cols.translation_group = registry.translationGroup(kind, values.translation_of as number, lang, id);
      }
      // Leaving the trash by any other status restores; entering it remembers where it came from.
      const status = cols.status as PostStatus | undefined;
      if (existing && status && status !== existing.status) {
        if (status === 'trash') cols.status_before_trash = existing.status;
        else if (existing.status === 'trash') cols.status_before_trash = null;
      }
      return cols;
    },
  };
}

export function titleField(kind: PostKind): string {
  return kind === 'event' ? 'title' : kind;
}

function dateInZone(d: Date, zone: string) {
  return DateTime.fromJSDate(d, { zone: zoneFor(zone) });
}

export type PostFieldWriter = ReturnType<typeof createPostFieldWriter>;
