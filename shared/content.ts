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
