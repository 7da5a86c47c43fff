/**
 * Slugs made from titles: plain ASCII titles take a shorter path than the rest (an import slugs
 * every event), and must get the very slug the general path gives.
 */
import { describe, expect, it } from 'vitest';
import { slugify } from '../../../electron/server/store/posts';

describe('slugify', () => {
  it('makes the slug a user sees in the event address', () => {
    expect(slugify('Hello, World!')).toBe('hello-world');
    expect(slugify('  Spring Concert 2031 ')).toBe('spring-concert-2031');
    expect(slugify('---')).toBe('');
    expect(slugify('Café <b>Bar</b> &amp; Grill')).toBe('cafe-bar-grill');
    expect(slugify('São Paulo: Ação')).toBe('sao-paulo-acao');
    expect(slugify('x'.repeat(200) + '!')).toBe('x'.repeat(190));
  });

  it('gives a plain ASCII title the slug the general path gives', () => {
    // An accent sends a title down the general path, and comes out as its bare letter: so with
    // "é" appended (general) and "e" appended (plain when the rest is), the slugs must agree.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let n = 0; n < 2000; n++) {
      const length = Math.floor(random() * (n % 10 === 0 ? 220 : 30));
      const title = Array.from({ length }, () => String.fromCharCode(0x20 + Math.floor(random() * 95))).join('');
      expect(slugify(`${title}é`), JSON.stringify(title)).toBe(slugify(`${title}e`));
    }
  });
});
