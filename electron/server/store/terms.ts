/**
 * Event categories and tags (the original's taxonomy terms). Unlike posts they have their own id
 * space per table, are deleted for good, and a name may exist once per parent and language.
 */
import type { Language } from '../../../shared/i18n/languages';
import type { RefList } from '../../../shared/schema/kinds';
import { rowsByIds, statementCache, type DB } from './db';
import { createListCache, type DataStamp } from './derived-cache';
import { slugify, highestCopy, groupMembers, translationsOf } from './posts';
import { ApiError, invalidParam } from '../errors';
import { fold, likePattern } from './search-text';
import type { Values, WriteContext } from './post-fields';

export type Taxonomy = 'category' | 'tag';

export interface TermRow {
  id: number;
  taxonomy: Taxonomy;
  lang: Language;
  name: string;
  slug: string;
  description: string;
  parent: number;
  translation_group: number;
  /** `#rrggbb` or '' (categories; migration 5). */
  color: string;
  /** Published events using the term (every occurrence of a series is one, as in the original). */
  count: number;
  /** Published single events and series using the term, a series counted once (migration 14). */
  series_count: number;
}

export interface TermListQuery {
  lang: Language;
  page: number;
  perPage: number;
  hideEmpty: boolean;
  search?: string;
  include?: number[];
  exclude?: number[];
  parent?: number;
  event?: number;
  slug?: string;
  order: 'asc' | 'desc';
  orderby: string;
}

const ORDER_COLUMNS: Record<string, string> = {
  id: 't.id',
  term_id: 't.id',
  term_group: 't.id',
  name: 't.name COLLATE NOCASE',
  slug: 't.slug',
  count: 't.count',
  parent: 't.parent',
  description: 't.description COLLATE NOCASE',
  none: 't.id',
};

export function createTermStore(db: DB, stamp: DataStamp) {
  const stmt = statementCache(db);
  const lists = createListCache(stmt, stamp);

  function filterSql(taxonomy: Taxonomy, q: TermListQuery): { whereSql: string; params: unknown[] } {
    const where = ['t.taxonomy = ?', 't.lang = ?'];
    const params: unknown[] = [taxonomy, q.lang];
    if (q.search !== undefined) {
      where.push("(fold(t.name) LIKE ? ESCAPE '\\' OR t.slug LIKE ? ESCAPE '\\')");
      params.push(likePattern(fold(q.search)), likePattern(q.search.toLowerCase()));
    }
    if (q.include) {
      where.push(`t.id IN (${q.include.map(() => '?').join(',')})`);
      params.push(...q.include);
    }
    if (q.exclude) {
      where.push(`t.id NOT IN (${q.exclude.map(() => '?').join(',')})`);
      params.push(...q.exclude);
    }
    if (q.parent !== undefined) {
      where.push('t.parent = ?');
      params.push(q.parent);
    }
    if (q.event !== undefined) {
      where.push('t.id IN (SELECT term_id FROM event_terms WHERE event_id = ?)');
      params.push(q.event);
    }
    if (q.slug !== undefined) {
      where.push('t.slug = ?');
      params.push(q.slug);
    }
    if (q.hideEmpty) where.push('t.count > 0');
    return { whereSql: where.join(' AND '), params };
  }
  const byId = db.prepare<[number, string], TermRow>(`SELECT t.* FROM terms t WHERE t.id = ? AND t.taxonomy = ?`);
  const exists = db.prepare<[number, string], number>('SELECT 1 FROM terms WHERE id = ? AND taxonomy = ?').pluck();
  const bySlug = db.prepare<[string, string], TermRow>(`SELECT t.* FROM terms t WHERE t.slug = ? AND t.taxonomy = ?`);
  const byName = db.prepare<[string, string, string], { id: number }>(
    'SELECT id FROM terms WHERE taxonomy = ? AND lang = ? AND name = ? COLLATE NOCASE ORDER BY id LIMIT 1',
  );
  const sameName = db.prepare<[string, string, number, string], { id: number }>(
    'SELECT id FROM terms WHERE taxonomy = ? AND lang = ? AND parent = ? AND name = ? COLLATE NOCASE LIMIT 1',
  );
  const slugOwner = db.prepare<[string, string], { id: number }>('SELECT id FROM terms WHERE taxonomy = ? AND slug = ?');
  const slugCopies = db.prepare<[string, string], { slug: string }>('SELECT slug FROM terms WHERE taxonomy = ? AND slug GLOB ?');
  const insert = db.prepare(
    'INSERT INTO terms (taxonomy, lang, name, slug, description, parent, color, translation_group) VALUES (?, ?, ?, ?, ?, ?, ?, 0)',
  );
  const setGroup = db.prepare('UPDATE terms SET translation_group = ? WHERE id = ?');
  const reparent = db.prepare('UPDATE terms SET parent = ? WHERE taxonomy = ? AND parent = ?');
  const remove = db.prepare('DELETE FROM terms WHERE id = ?');
  const groupOf = db.prepare<[number, string], { lang: string; grp: number }>('SELECT lang, translation_group AS grp FROM terms WHERE id = ? AND taxonomy = ?');
  const groupHasLang = db.prepare('SELECT id FROM terms WHERE translation_group = ? AND lang = ? AND id != ?');
  const linkTerm = db.prepare('INSERT OR IGNORE INTO event_terms (event_id, term_id, position) VALUES (?, ?, ?)');
  const unlinkTaxonomy = db.prepare('DELETE FROM event_terms WHERE event_id = ? AND (SELECT taxonomy FROM terms WHERE id = term_id) = ?');

  function uniqueSlug(taxonomy: Taxonomy, wanted: string, selfId: number): string {
    const base = slugify(wanted) || 'term';
    const owner = slugOwner.get(taxonomy, base);
    if (!owner || owner.id === selfId) return base;
    return `${base}-${highestCopy(base, slugCopies.all(taxonomy, `${base}-[0-9]*`)) + 1}`;
  }

  function checkParent(taxonomy: Taxonomy, parent: number | undefined, selfId: number) {
    if (parent === undefined || parent === 0) return;
    if (taxonomy !== 'category' || parent === selfId || !byId.get(parent, taxonomy)) throw invalidParam('parent', 'invalid_parent');
    // A category may not become its own ancestor.
    for (let p = byId.get(parent, taxonomy); p && p.parent; p = byId.get(p.parent, taxonomy)) {
      if (p.parent === selfId) throw invalidParam('parent', 'invalid_parent');
    }
  }

  function checkNameFree(taxonomy: Taxonomy, lang: string, parent: number, name: string, selfId: number) {
    const existing = sameName.get(taxonomy, lang, parent, name);
    if (existing && existing.id !== selfId) {
      throw new ApiError('term_exists', 400, 'term_exists', {}, { term_id: existing.id });
    }
  }

  function translationGroup(taxonomy: Taxonomy, of: number, lang: string, selfId: number): number {
    const target = groupOf.get(of, taxonomy);
    if (!target || target.lang === lang || groupHasLang.get(target.grp, lang, selfId)) throw invalidParam('translation_of', 'invalid_translation');
    return target.grp;
  }

  const store = {
    /** Whether a term of this taxonomy has this id (cheaper than reading its row). */
    exists(taxonomy: Taxonomy, id: number): boolean {
      return !!exists.get(id, taxonomy);
    },
    get(taxonomy: Taxonomy, id: number): TermRow | undefined {
      return byId.get(id, taxonomy);
    },
    getBySlug(taxonomy: Taxonomy, slug: string): TermRow | undefined {
      return bySlug.get(slug.toLowerCase(), taxonomy);
    },
    translations(row: TermRow): Record<string, number> {
      return this.translationsOfAll([row])(row);
    },
    /** The same for a page of terms, in one query: the `translations` of each row. */
    translationsOfAll(rows: TermRow[]): (row: TermRow) => Record<string, number> {
      const members = groupMembers(stmt, 'terms', rows.map((r) => r.translation_group));
      return (row) => translationsOf(members, row);
    },
    create(taxonomy: Taxonomy, values: Values, ctx: WriteContext): number {
      const name = values.name as string;
      const parent = (values.parent as number | undefined) ?? 0;
      checkParent(taxonomy, parent, 0);
      checkNameFree(taxonomy, ctx.lang, parent, name, 0);
      const slug = uniqueSlug(taxonomy, (values.slug as string | undefined) ?? name, 0);
      const id = Number(insert.run(taxonomy, ctx.lang, name, slug, (values.description as string) ?? '', parent, (values.color as string | undefined) ?? '').lastInsertRowid);
      const group = values.translation_of !== undefined ? translationGroup(taxonomy, values.translation_of as number, ctx.lang, id) : id;
      setGroup.run(group, id);
      return id;
    },
    update(taxonomy: Taxonomy, id: number, values: Values): void {
      const row = byId.get(id, taxonomy)!;
      const cols: Record<string, unknown> = {};
      if (values.parent !== undefined) {
        checkParent(taxonomy, values.parent as number, id);
        cols.parent = values.parent;
      }
      if (values.name !== undefined || values.parent !== undefined) {
        checkNameFree(taxonomy, row.lang, (cols.parent as number | undefined) ?? row.parent, (values.name as string | undefined) ?? row.name, id);
      }
      if (values.name !== undefined) cols.name = values.name;
      if (values.description !== undefined) cols.description = values.description;
      if (values.color !== undefined) cols.color = values.color;
      if (values.slug !== undefined) cols.slug = uniqueSlug(taxonomy, values.slug as string, id);
      if (values.translation_of !== undefined) cols.translation_group = translationGroup(taxonomy, values.translation_of as number, row.lang, id);
      const keys = Object.keys(cols);
      if (keys.length) stmt(`UPDATE terms SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE id = ?`).run(...keys.map((k) => cols[k]), id);
    },
    /** Deletes for good; children move up to the deleted category's parent, as in the original. */
    delete(taxonomy: Taxonomy, id: number): void {
      const row = byId.get(id, taxonomy)!;
      reparent.run(row.parent, taxonomy, id);
      remove.run(id);
    },
    /**
     * Term ids for an event body's `categories`/`tags`: ids must exist; names or slugs find an
     * existing term (by slug, then by name in the event's language) or create one.
     */
    resolveRefs(taxonomy: Taxonomy, refs: RefList, param: string, ctx: WriteContext, memo?: Map<string, number>): number[] {
      const ids: number[] = [];
      for (const ref of refs) {
        let id: number | undefined;
        if (typeof ref === 'number') {
          const known = memo && `#${taxonomy}\u0000${ref}`;
          if (known === undefined || !memo!.has(known)) {
            if (!exists.get(ref, taxonomy)) throw invalidParam(param, 'invalid_term_ref');
            if (known !== undefined) memo!.set(known, ref);
          }
          id = ref;
        } else {
          // A bulk write's memory (LinkMemo in event-links.ts): a name resolves the same way until a
          // term is created, so creating one forgets them all.
          const key = memo && `${taxonomy}\u0000${ctx.lang}\u0000${ref}`;
          id = key === undefined ? undefined : memo!.get(key);
          if (id === undefined) {
            // Only terms of the event's own language: "music" on a Portuguese event must not
            // link the English category of that slug.
            const sameLang = (row: TermRow | undefined) => (row && row.lang === ctx.lang ? row.id : undefined);
            id = sameLang(bySlug.get(ref.toLowerCase(), taxonomy)) ?? byName.get(taxonomy, ctx.lang, ref)?.id ?? sameLang(bySlug.get(slugify(ref), taxonomy));
            if (id === undefined) {
              id = store.create(taxonomy, { name: ref }, ctx);
              memo?.clear();
            }
            if (key !== undefined) memo!.set(key, id);
          }
        }
        if (!ids.includes(id)) ids.push(id);
      }
      return ids;
    },
    setEventTerms(eventId: number, taxonomy: Taxonomy, ids: number[]): void {
      unlinkTaxonomy.run(eventId, taxonomy);
      ids.forEach((id, i) => linkTerm.run(eventId, id, i));
    },
    /** setEventTerms for an event just created: it has no links yet to remove. */
    linkEventTerms(eventId: number, ids: number[]): void {
      ids.forEach((id, i) => linkTerm.run(eventId, id, i));
    },
    /** Terms of many events at once, in the order they were given. */
    forEvents(eventIds: number[]): Map<number, TermRow[]> {
      const out = new Map<number, TermRow[]>();
      if (eventIds.length === 0) return out;
      const rows = stmt(
        `SELECT et.event_id, t.* FROM event_terms et JOIN terms t ON t.id = et.term_id
         WHERE et.event_id IN (${eventIds.map(() => '?').join(',')}) ORDER BY et.event_id, et.position`,
      ).all(...eventIds) as Array<TermRow & { event_id: number }>;
      for (const r of rows) {
        const list = out.get(r.event_id) ?? [];
        list.push(r);
        out.set(r.event_id, list);
      }
      return out;
    },
    /**
     * A page of ids and the total (both remembered until the data changes). Only ids: the page is
     * usually served from the records' JSON cache.
     */
    list(taxonomy: Taxonomy, q: TermListQuery): { ids: number[]; total: number } {
      const { whereSql, params } = filterSql(taxonomy, q);
      const total = lists.count(`SELECT count(*) AS n FROM terms t WHERE ${whereSql}`, params);
      let orderSql: string;
      if (q.orderby === 'include' && q.include) {
        orderSql = `CASE t.id ${q.include.map((id, i) => `WHEN ${Number(id)} THEN ${i}`).join(' ')} END`;
      } else {
        // Own keys only: `orderby=__proto__` must not find Object.prototype.
        orderSql = Object.hasOwn(ORDER_COLUMNS, q.orderby) ? ORDER_COLUMNS[q.orderby] : ORDER_COLUMNS.name;
      }
      const dir = q.order === 'asc' ? 'ASC' : 'DESC';
      const ids = lists.ids(`SELECT t.id FROM terms t WHERE ${whereSql} ORDER BY ${orderSql} ${dir}, t.id ${dir} LIMIT ? OFFSET ?`, [...params, q.perPage, (q.page - 1) * q.perPage]);
      return { ids, total };
    },
    byIds(ids: number[]): Map<number, TermRow> {
      return rowsByIds<TermRow>(stmt, 'terms', ids);
    },
  };
  return store;
}

export type TermStore = ReturnType<typeof createTermStore>;
