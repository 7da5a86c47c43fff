/* ------------------------------------------------------------------------------------------------
 * Text: escaping, folding, HTML
 * ---------------------------------------------------------------------------------------------- */

import { decodeEntities, textToHtml } from '../../../shared/content';

export type Params = Record<string, string | undefined>;

const TEXT_SPECIALS = /\\|;|,|\r\n|\r|\n/g;

/** TEXT value escaping (RFC 5545 §3.3.11). */
export function escapeText(s: string): string {
  TEXT_SPECIALS.lastIndex = 0;
  if (!TEXT_SPECIALS.test(s)) return s;
  return s.replace(TEXT_SPECIALS, (c) => (c === '\\' || c === ';' || c === ',' ? `\\${c}` : '\\n'));
}

/** Inverse of escapeText, tolerant of the `\N` and stray backslashes real files contain. */
export function unescapeText(s: string): string {
  return s.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** Splits a TEXT list on the commas that are not escaped, then unescapes each item. */
export function splitTextList(raw: string): string[] {
  const items: string[] = [];
  let current = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\' && i + 1 < raw.length) {
      current += c + raw[i + 1];
      i++;
    } else if (c === ',') {
      items.push(current);
      current = '';
    } else current += c;
  }
  items.push(current);
  return items.map(unescapeText);
}

const PARAM_SPECIALS = /[\x00-\x1f\x7f"^;:,\s]/;

/**
 * A parameter value: RFC 6868 caret-encoding for quotes and newlines, and DQUOTEs around values
 * with the characters that would otherwise end the parameter.
 */
export function paramValue(v: string): string {
  if (v !== '' && !PARAM_SPECIALS.test(v)) return v;
  const encoded = v
    .replace(/\^/g, '^^')
    .replace(/\r\n|\r|\n/g, '^n')
    .replace(/"/g, "^'")
    // Other control characters are not allowed anywhere in a parameter.
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
  return /[;:,\s]/.test(encoded) || encoded === '' ? `"${encoded}"` : encoded;
}

export function contentLine(name: string, params: Params, value: string): string {
  let line = name;
  for (const [key, v] of Object.entries(params)) {
    if (v !== undefined && v !== '') line += `;${key}=${paramValue(v)}`;
  }
  return `${line}:${value}`;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Folds a content line into lines of at most 75 octets, never splitting a UTF-8 character. */
export function foldLine(line: string): string {
  // An export of 100,000 events folds millions of lines: skip the per-character work where we can.
  if (line.length <= 25) return line;
  if (!NON_ASCII.test(line)) {
    if (line.length <= 75) return line;
    const ascii = [line.slice(0, 75)];
    for (let i = 75; i < line.length; i += 74) ascii.push(line.slice(i, i + 74));
    return ascii.join('\r\n ');
  }
  if (Buffer.byteLength(line, 'utf8') <= 75) return line;
  const pieces: string[] = [];
  let start = 0;
  let octets = 0;
  // The first line holds 75 octets; continuation lines 74 after their leading space.
  let limit = 75;
  for (let i = 0; i < line.length; ) {
    const code = line.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && (line.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (octets + size > limit) {
      pieces.push(line.slice(start, i));
      start = i;
      octets = 0;
      limit = 74;
    }
    octets += size;
    i += pair ? 2 : 1;
  }
  pieces.push(line.slice(start));
  return pieces.join('\r\n ');
}

export function joinLines(lines: string[]): string {
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

/**
 * The HTML the API makes of plain text (serialize/content.ts's renderContent): `<p>` paragraphs one
 * line apart, each line break inside as `<br />` and a newline, no other markup. For such HTML the
 * text is exact (spaces kept as typed), and iCalendar needs no HTML alternative.
 */
const RENDERED_PLAIN = /^<p>(?:[^<\n]|<br \/>\n)*<\/p>(?:\n<p>(?:[^<\n]|<br \/>\n)*<\/p>)*$/;

/** Whitespace of HTML source (not U+00A0, which is text). */
const SOURCE_SPACE = /[ \t\r\n\f]+/g;
const BLOCK_TAG = /<\/?(?:p|div|h[1-6]|blockquote|pre|ul|ol|table|section|article|header|footer|figure|address|dl|hr)\b[^>]*>/gi;

/**
 * A description's HTML as DESCRIPTION text, the text a reader sees: a line break as one newline,
 * paragraphs one blank line apart, list items as "• " lines. `plain` says the HTML is just that
 * text as the API renders it, so the text says everything.
 */
export function describeHtml(html: string): { text: string; plain: boolean } {
  if (RENDERED_PLAIN.test(html)) {
    const paragraphs = html.slice(3, -4).split('</p>\n<p>');
    let text = '';
    for (let i = 0; i < paragraphs.length; i++) {
      text += (i ? '\n\n' : '') + decodeEntities(paragraphs[i].replaceAll('<br />\n', '\n'));
    }
    return { text, plain: true };
  }
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    // Line breaks in the source are spaces to a reader; only markup breaks lines.
    .replace(SOURCE_SPACE, ' ')
    .replace(/<br\b[^>]*>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n• ')
    .replace(BLOCK_TAG, '\n\n')
    .replace(/<\/tr>/gi, '\n')
    .replace(/<\/t[dh]>/gi, ' ')
    // A "<" that starts no tag ("3 < 4") is text.
    .replace(/<\/?[a-z!][^>]*>/gi, '')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { text: decodeEntities(text), plain: false };
}

/**
 * Plain text (another client's DESCRIPTION) as the HTML content the API stores: its line ends
 * made one, then escaped so that nothing in it is ever taken for markup (shared/content.ts).
 */
export function descriptionToHtml(text: string): string {
  return textToHtml(text.replace(/\r\n?/g, '\n').trim());
}

/**
 * A short digest of a standard property's text, written beside a private property that restates
 * it: when another client changes the standard property (and keeps the private one as it was),
 * the digest no longer matches and the private property is known to be stale. 53 bits of a fast
 * non-cryptographic hash (cyrb53): enough to tell an edit, cheap enough for every event of an import.
 */
export function textDigest(text: string): string {
  const s = text.replace(/\r\n?/g, '\n').trim();
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/**
 * Whether two texts say the same words: for private properties written before they carried a
 * digest, whose standard property may have been derived by an older rule (other whitespace,
 * bullets) or written by another program from the same HTML (Outlook's DESCRIPTION).
 */
export function sameWords(a: string, b: string): boolean {
  const words = (s: string) => s.replace(/[^\p{L}\p{N}]+/gu, '');
  return words(a) === words(b);
}
