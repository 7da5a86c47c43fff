/**
 * Descriptions and excerpts come back as the original's content filters render them: paragraphs
 * wrapped in `<p>`, single line breaks as `<br />`. Text that is already HTML blocks is left alone,
 * so a client that saves what it read gets the same text back.
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

/** Plain text of rendered content, for JSON-LD and iCalendar. */
export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
