/** How searches read text: the user's words, matched ignoring case and accents. */

/** Lower case without accents: how searches compare text (`São` = `sao`), like the original's collation. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** `%`, `_` and `\` are literal in user search text. */
export function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Words of a venue/organizer search: runs of letters, digits and `-`. */
export function searchWords(search: string): string[] {
  return search.split(/[^\p{L}\p{N}-]+/u).filter(Boolean);
}

/** Search words: quoted phrases stay whole, as in the original's post search. */
export function eventSearchTerms(search: string): string[] {
  const terms: string[] = [];
  for (const m of search.matchAll(/"([^"]+)"|(\S+)/g)) terms.push((m[1] ?? m[2]).trim());
  return terms.filter(Boolean);
}


/**
 * What an event search reads besides the event's own text: its venue's name, city and address,
 * and its organizers' names ("Lisboa" finds the events in Lisbon's venues). These are matched
 * on the venues and organizers tables, a few hundred rows, not copied into the events' search
 * index: the index stays what an import builds, and renaming a venue needs no re-indexing.
 */
const VENUE_TEXT = ['title', 'city', 'address'] as const;
const ORGANIZER_TEXT = ['title'] as const;

const likeAny = (columns: readonly string[]) => columns.map((c) => `fold(${c}) LIKE ? ESCAPE '\\'`).join(' OR ');

/** Ids of the events whose venue or organizer holds the `?` pattern(s) of `linkedSearchParams`. */
export const LINKED_SEARCH_SQL =
  `SELECT id FROM events WHERE venue_id IN (SELECT id FROM venues WHERE ${likeAny(VENUE_TEXT)})` +
  ` UNION SELECT event_id FROM event_organizers WHERE organizer_id IN (SELECT id FROM organizers WHERE ${likeAny(ORGANIZER_TEXT)})`;

/** Whether any venue or organizer holds the word at all (the same parameters as `LINKED_SEARCH_SQL`). */
export const LINKED_ANY_SQL =
  `SELECT EXISTS (SELECT 1 FROM venues WHERE ${likeAny(VENUE_TEXT)})` +
  ` OR EXISTS (SELECT 1 FROM organizers WHERE ${likeAny(ORGANIZER_TEXT)}) AS found`;

/** The parameters of `LINKED_SEARCH_SQL` for one search word (already a `likePattern` of its fold). */
export function linkedSearchParams(pattern: string): string[] {
  return new Array<string>(VENUE_TEXT.length + ORGANIZER_TEXT.length).fill(pattern);
}
