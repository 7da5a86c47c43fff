/**
 * What events, venues and organizers have in common: one id space, slugs unique per kind,
 * publication dates, translation groups, trash, and who may see which status.
 */
import { statementCache, type DB, type Stmt } from './db';
import type { Language } from '../../../shared/i18n/languages';
import type { PostStatus } from '../../../shared/schema/kinds';
import { invalidParam } from '../errors';

export type PostKind = 'event' | 'venue' | 'organizer';
export const TABLE: Record<PostKind, string> = { event: 'events', venue: 'venues', organizer: 'organizers' };

/** Who is asking. A token holder is the owner (the original's administrator). */
export interface Viewer {
  canEdit: boolean;
}

/** Statuses a viewer sees when a list is not filtered by status (reference §6). */
export function defaultStatuses(viewer: Viewer): PostStatus[] {
  return viewer.canEdit ? ['publish', 'future', 'draft', 'pending', 'private'] : ['publish'];
}

/** The columns every post table has, as stored. */
export interface PostRow {
  id: number;
  lang: Language;
  status: PostStatus;
  status_before_trash: PostStatus | null;
  author: number;
  slug: string;
  title: string;
  content: string;
  excerpt: string;
  date_local: string;
  date_utc: string;
  modified_local: string;
  modified_utc: string;
  image_id: number | null;
  translation_group: number;
}

/** Printable ASCII without `<` or `&`: no tag, entity or accent for the general path to take out. */
const PLAIN_ASCII = /^[\x20-\x25\x27-\x3b\x3d-\x7e]*$/;

/** Lower-case, accent-free, dash-separated: the slug WordPress would make from a title. */
export function slugify(text: string): string {
  // Most titles are plain ASCII, for which the Unicode normalisation and classes below change
  // nothing; an import slugs every event's title.
  if (PLAIN_ASCII.test(text)) {
    return text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 190);
  }
  return text
    .replace(/<[^>]*>/g, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&[a-z0-9#]+;/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 190);
}

/** The highest n of `<base>-n` among slugs (1 when there is none: the base itself is taken). */
export function highestCopy(base: string, rows: Array<{ slug: string }>): number {
  let max = 1;
  for (const { slug } of rows) {
    const rest = slug.slice(base.length + 1);
    if (/^\d{1,9}$/.test(rest)) max = Math.max(max, Number(rest));
  }
  return max;
}

export function createPostRegistry(db: DB) {
  const insertPost = db.prepare<[string]>('INSERT INTO posts (type) VALUES (?)');
  const typeOf = db.prepare<[number], { type: string }>('SELECT type FROM posts WHERE id = ?');
  const release = db.prepare('DELETE FROM posts WHERE id = ?');
  const slugTaken: Record<PostKind, Stmt> = {
    event: db.prepare<unknown[]>('SELECT id FROM events WHERE slug = ?'),
    venue: db.prepare<unknown[]>('SELECT id FROM venues WHERE slug = ?'),
    organizer: db.prepare<unknown[]>('SELECT id FROM organizers WHERE slug = ?'),
  };
  // Numbered copies of a slug (`book-club-2`, `book-club-3`…), found through the slug index.
  const slugCopies: Record<PostKind, Stmt> = {
    event: db.prepare<unknown[]>('SELECT slug FROM events WHERE slug GLOB ?'),
    venue: db.prepare<unknown[]>('SELECT slug FROM venues WHERE slug GLOB ?'),
    organizer: db.prepare<unknown[]>('SELECT slug FROM organizers WHERE slug GLOB ?'),
  };
  const groupOf: Record<PostKind, Stmt> = {
    event: db.prepare<unknown[]>('SELECT lang, translation_group AS grp FROM events WHERE id = ?'),
    venue: db.prepare<unknown[]>('SELECT lang, translation_group AS grp FROM venues WHERE id = ?'),
    organizer: db.prepare<unknown[]>('SELECT lang, translation_group AS grp FROM organizers WHERE id = ?'),
  };
  const groupHasLang: Record<PostKind, Stmt> = {
    event: db.prepare<unknown[]>('SELECT id FROM events WHERE translation_group = ? AND lang = ? AND id != ?'),
    venue: db.prepare<unknown[]>('SELECT id FROM venues WHERE translation_group = ? AND lang = ? AND id != ?'),
    organizer: db.prepare<unknown[]>('SELECT id FROM organizers WHERE translation_group = ? AND lang = ? AND id != ?'),
  };
  const stmt = statementCache(db);
  /**
   * The highest `<base>-n` handed out per kind and base: the next copy of a title is one lookup,
   * not a read of every copy before it (100,000 events of one title took over half an hour).
   * Only a hint: what another process or a rolled-back transaction did is found by the check of
   * the number chosen, and a stale hint is read afresh.
   */
  const highest = new Map<string, number>();
  const HIGHEST_KEPT = 10_000;

  return {
    /** A transaction rolled back: the slugs it handed out are free again, and the hints no longer say so. */
    rolledBack(): void {
      highest.clear();
    },
    allocate(kind: PostKind | 'image'): number {
      return Number(insertPost.run(kind).lastInsertRowid);
    },
    /** Forgets an id whose record was deleted for good, so it reads as "no such record". */
    release(id: number): void {
      release.run(id);
    },
    kindOf(id: number): string | undefined {
      return typeOf.get(id)?.type;
    },
    /** A slug free in this kind: the wanted one, or it with -2, -3… appended. */
    uniqueSlug(kind: PostKind, wanted: string, selfId: number): string {
      const base = slugify(wanted) || String(selfId);
      const row = slugTaken[kind].get(base) as { id: number } | undefined;
      if (!row || row.id === selfId) return base;
      const key = `${kind}:${base}`;
      const read = () => highestCopy(base, slugCopies[kind].all(`${base}-[0-9]*`) as Array<{ slug: string }>);
      let next = (highest.get(key) ?? read()) + 1;
      for (let tries = 0; slugTaken[kind].get(`${base}-${next}`); tries++) next = tries < 2 ? next + 1 : read() + 1;
      if (highest.size >= HIGHEST_KEPT && !highest.has(key)) highest.clear();
      highest.set(key, next);
      return `${base}-${next}`;
    },
    /**
     * The translation group a record joins when it says it translates `of`: that record must be
     * of the same kind, in another language, with no other record of this language in its group.
     */
    translationGroup(kind: PostKind, of: number, lang: Language, selfId: number): number {
      const target = groupOf[kind].get(of) as { lang: string; grp: number } | undefined;
      if (!target || target.lang === lang || groupHasLang[kind].get(target.grp, lang, selfId)) {
        throw invalidParam('translation_of', 'invalid_translation');
      }
      return target.grp;
    },
    /**
     * The members of these translation groups, by group, in id order: one query for a whole page
     * of records (a record's `translations` are the other members of its group).
     */
    groupMembers(kind: PostKind, groups: number[]): GroupMembers {
      return groupMembers(stmt, TABLE[kind], groups);
    },
  };
}

export type PostRegistry = ReturnType<typeof createPostRegistry>;

/** The members of translation groups, by group, in id order. */
export type GroupMembers = Map<number, Array<{ id: number; lang: string }>>;

/** The members of these translation groups in `table` (a post table or terms), in one query. */
export function groupMembers(stmt: (sql: string) => Stmt, table: string, groups: number[]): GroupMembers {
  const out: GroupMembers = new Map();
  const wanted = [...new Set(groups)];
  if (wanted.length === 0) return out;
  const rows = stmt(`SELECT translation_group AS grp, id, lang FROM ${table} WHERE translation_group IN (${wanted.map(() => '?').join(',')}) ORDER BY id`).all(
    ...wanted,
  ) as Array<{ grp: number; id: number; lang: string }>;
  for (const r of rows) {
    const list = out.get(r.grp) ?? [];
    list.push({ id: r.id, lang: r.lang });
    out.set(r.grp, list);
  }
  return out;
}

/** A record's `translations`: the other members of its group, `{ lang: id }`. */
export function translationsOf(members: GroupMembers | undefined, row: { id: number; translation_group: number }): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of members?.get(row.translation_group) ?? []) if (m.id !== row.id) out[m.lang] = m.id;
  return out;
}
