/** Categories: the shared term behaviour plus hierarchy (reference §3.1, §4.3, §5.8, §7.4a). */
import { describe, expect, it } from 'vitest';
import { termSuite } from './_term-suite';
import { expectError, expectInvalidParam, uniq } from './_support';

termSuite('categories', ({ t, mk }) => {
  describe('colour (Almanac)', () => {
    it('is kept as sent, lower-cased, given back on read and in lists, and "" clears it', async () => {
      const c = await mk({ color: '#1E90FF' });
      expect(c.color).toBe('#1e90ff');
      expect((await t().api('get', `categories/${c.id}`)).body.color).toBe('#1e90ff');
      const listed = (await t().api('get', 'categories').query({ include: c.id, hide_empty: false })).body.categories[0];
      expect(listed.color).toBe('#1e90ff');
      const changed = await t().api('patch', `categories/${c.id}`).send({ color: '#aa0000' });
      expect(changed.body.color).toBe('#aa0000');
      const renamed = await t().api('patch', `categories/${c.id}`).send({ name: uniq('renamed') });
      expect(renamed.body.color).toBe('#aa0000');
      expect((await t().api('patch', `categories/${c.id}`).send({ color: '' })).body.color).toBe('');
    });

    it('a new category has none', async () => {
      expect((await mk()).color).toBe('');
    });

    it.each(['red', '#12345', '#1234567', '1e90ff', '#ggg000', 'rgb(1,2,3)'])('%j → 400, nothing stored', async (color) => {
      const c = await mk({ color: '#010203' });
      expectInvalidParam(await t().api('patch', `categories/${c.id}`).send({ color }), 'color');
      expect((await t().api('get', `categories/${c.id}`)).body.color).toBe('#010203');
      const res = await t().api('post', 'categories').query({ i18n_language: 'es' }).send({ name: uniq('c'), color });
      expectInvalidParam(res, 'color');
      expect(res.body.data.params.color).toContain('#rrggbb');
    });

    it('is documented in /doc', async () => {
      const doc = (await t().api('get', 'doc')).body;
      const props = doc.paths['/categories'].post.requestBody.content['application/json'].schema.properties;
      expect(props.color.description).toMatch(/#rrggbb/);
    });
  });

  describe('hierarchy', () => {
    it('a top-level category has parent 0 and no urls.up', async () => {
      const c = await mk();
      expect(c.parent).toBe(0);
      expect(c.urls).not.toHaveProperty('up');
    });

    it('a child has parent and urls.up', async () => {
      const p = await mk();
      const c = await mk({ parent: p.id });
      expect(c.parent).toBe(p.id);
      expect(c.urls.up).toBe(`${t().server.apiRoot}categories/${p.id}`);
    });

    it.each([['""', ''], ['not a category', 999999], ['non-numeric', 'abc']])('parent %s → 400', async (_n, parent) => {
      expectInvalidParam(await t().api('post', 'categories').send({ name: uniq('c'), parent }), 'parent');
    });

    it('a tag id as parent → 400', async () => {
      const tag = await t().api('post', 'tags').send({ name: uniq('t') });
      expectInvalidParam(await t().api('post', 'categories').send({ name: uniq('c'), parent: tag.body.id }), 'parent');
    });

    it('the same name under another parent is allowed; under the same parent → term_exists', async () => {
      const p = await mk();
      const top = await mk();
      const child = await mk({ name: top.name, parent: p.id });
      expect(child.parent).toBe(p.id);
      const res = await t().api('post', 'categories').send({ name: top.name, parent: p.id });
      expectError(res, 400, 'term_exists');
      expect(res.body.data.term_id).toBe(child.id);
    });

    it('parent filter lists direct children only; unknown parent → 400', async () => {
      const p = await mk();
      const c1 = await mk({ parent: p.id });
      const c2 = await mk({ parent: p.id });
      await mk({ parent: c1.id });
      const res = await t().api('get', `categories?parent=${p.id}&hide_empty=false`);
      expect(res.body.categories.map((x: { id: number }) => x.id).sort()).toEqual([c1.id, c2.id].sort());
      expectInvalidParam(await t().api('get', 'categories?parent=999999'), 'parent');
      expectInvalidParam(await t().api('get', 'categories?parent='), 'parent');
    });

    it('update can move a category under another', async () => {
      const p = await mk();
      const c = await mk();
      const res = await t().api('put', `categories/${c.id}`).send({ parent: p.id });
      expect([res.status, res.body.parent]).toEqual([200, p.id]);
    });
  });
});
