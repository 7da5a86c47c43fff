/** Categories and tags in their two shapes: as the term endpoints return them, and embedded in events. */
import type { Term, EmbeddedTerm } from '../../../shared/api/records';
import type { TermRow, Taxonomy } from '../store/terms';
import type { UrlContext } from './context';
import type { Store } from '../store';
import { cachedJson } from './json-cache';

/** The taxonomy identifiers clients of the original know (its category taxonomy, renamed). */
export const TAXONOMY_ID: Record<Taxonomy, string> = { category: 'cal_events_cat', tag: 'post_tag' };
const COLLECTION: Record<Taxonomy, string> = { category: 'categories', tag: 'tags' };

function urls(row: TermRow, ctx: UrlContext) {
  const collection = `${ctx.apiRoot}${COLLECTION[row.taxonomy]}`;
  const out: { self: string; collection: string; up?: string } = { self: `${collection}/${row.id}`, collection };
  if (row.parent) out.up = `${collection}/${row.parent}`;
  return out;
}

export function serializeTerm(row: TermRow, ctx: UrlContext, translations: Record<string, number>): Term {
  const term: Term = {
    id: row.id,
    count: row.count,
    series_count: row.series_count,
    description: row.description,
    name: row.name,
    slug: row.slug,
    taxonomy: TAXONOMY_ID[row.taxonomy],
    meta: [],
    url: `${ctx.origin}/events/${row.taxonomy}/${encodeURIComponent(row.slug)}/`,
    urls: urls(row, ctx),
    i18n_language: row.lang,
    translations,
  };
  if (row.taxonomy === 'category') {
    // Key order as the original emits it: parent comes after taxonomy.
    return { id: term.id, count: term.count, series_count: row.series_count, description: term.description, name: term.name, slug: term.slug, taxonomy: term.taxonomy, parent: row.parent, color: row.color, meta: [], url: term.url, urls: term.urls, i18n_language: row.lang, translations };
  }
  return term;
}

export function embedTerm(row: TermRow, ctx: UrlContext): EmbeddedTerm {
  return {
    name: row.name,
    slug: row.slug,
    term_group: 0,
    term_taxonomy_id: row.id,
    taxonomy: TAXONOMY_ID[row.taxonomy],
    description: row.description,
    parent: row.parent,
    count: row.count,
    filter: 'raw',
    id: row.id,
    urls: urls(row, ctx),
  };
}

/** Terms as JSON (UTF-8), for lists, from the JSON cache where possible (as linkedJson, eventsJson). */
export function termsJson(taxonomy: Taxonomy, ids: number[], ctx: UrlContext, store: Store): Buffer[] {
  return cachedJson(store.recordJson.current(), taxonomy, ctx, ids, (missing) => {
    const byId = store.terms.byIds(missing);
    const rows = missing.map((id) => byId.get(id)!);
    const translations = store.terms.translationsOfAll(rows);
    return rows.map((r) => serializeTerm(r, ctx, translations(r)));
  });
}
