/**
 * How the API renders descriptions and excerpts, as the original's content filters do: paragraphs
 * wrapped in `<p>`, single line breaks as `<br />`. Text that is already HTML blocks is left alone,
 * so a client that saves what it read gets the same text back. Shared so that the editor
 * (renderer/src/editor/form.ts) can take the rendering back off exactly.
 */
const BLOCK = /^<(p|div|ul|ol|li|h[1-6]|table|thead|tbody|tr|td|th|blockquote|pre|figure|section|article|hr|address|dl|dd|dt|form|fieldset|header|footer|nav|aside|details|summary)[\s>/]/i;

export function renderContent(text: string): string {
  const normalised = text.replace(/\r\n?/g, '\n').trim();
  if (normalised === '') return '';
  return normalised
    .split(/\n\s*\n/)
    .map((para) => para.trim())
    .filter(Boolean)
    .map((para) => (BLOCK.test(para) ? para : `<p>${para.replace(/\n/g, '<br />\n')}</p>`))
    .join('\n');
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  euro: '\u20ac',
  pound: '\u00a3',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  laquo: '\u00ab',
  raquo: '\u00bb',
};

/**
 * HTML entities as the characters a reader sees (`&#038;` → `&`, `&#8217;` → `’`): what a
 * website renders in its text and what Outlook and others put in iCalendar text.
 */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** Text as HTML that says exactly that text: `&`, `<` and `>` escaped, so nothing in it is ever taken for markup (the API renders its lines). */
export function textToHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
