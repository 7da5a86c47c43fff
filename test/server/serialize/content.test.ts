import { describe, it, expect } from 'vitest';
import { renderContent, plainText } from '../../../electron/server/serialize/content';

describe('descriptions rendered like the original', () => {
  it('wraps paragraphs in <p> and single line breaks in <br />', () => {
    expect(renderContent('An evening of music.\n\nDoors at 7.\nBring a chair.')).toBe('<p>An evening of music.</p>\n<p>Doors at 7.<br />\nBring a chair.</p>');
  });
  it('leaves HTML blocks alone, so saving what was read changes nothing', () => {
    const once = renderContent('Hello\n\n<ul><li>a</li></ul>');
    expect(renderContent(once)).toBe(once);
    expect(once).toBe('<p>Hello</p>\n<ul><li>a</li></ul>');
  });
  it('is empty for empty or blank text', () => {
    expect(renderContent('')).toBe('');
    expect(renderContent('  \n ')).toBe('');
  });
  it('turns rendered HTML back into readable text', () => {
    expect(plainText('<p>Fish &amp; chips</p>\n<p>Line<br />two</p>')).toBe('Fish & chips\n\nLine\ntwo');
  });
});
