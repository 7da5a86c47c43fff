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

