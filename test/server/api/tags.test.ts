/** Tags: the shared term behaviour; no hierarchy (reference §4.3, §7.4a). */
import { describe, expect, it } from 'vitest';
import { termSuite } from './_term-suite';

termSuite('tags', ({ mk }) => {
  describe('tag specifics', () => {
    it('taxonomy post_tag and no parent key', async () => {
      const tag = await mk();
      expect(tag.taxonomy).toBe('post_tag');
      expect(tag).not.toHaveProperty('parent');
      expect(tag.urls).not.toHaveProperty('up');
    });
  });
});
