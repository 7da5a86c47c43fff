/**
 * Organizers (reference §3.1, §4.2, §5.7, §7.3); the behaviour shared with venues is in
 * _linked-suite.ts.
 */
import { describe, expect, it } from 'vitest';
import { Organizer } from '../../../shared/api/records';
import { linkedSuite } from './_linked-suite';
import { ORGANIZER_KEYS, expectKeyOrder, uniq } from './_support';

linkedSuite('organizer', ({ t, mk }) => {
  describe('organizer fields', () => {
    it('stores phone, website, email in the original order; no show_map keys', async () => {
      const res = await t().api('post', 'organizers').send({
        organizer: uniq('Arts Council'),
        description: 'Local arts nonprofit.',
        phone: '555-0101',
        website: 'http://arts.example.org',
        email: 'info@arts.example.org',
      });
      expect(res.status).toBe(201);
      Organizer.parse(res.body);
      expectKeyOrder(res.body, ORGANIZER_KEYS, ['phone', 'website', 'email']);
      expect(res.body).toMatchObject({ phone: '555-0101', website: 'http://arts.example.org', email: 'info@arts.example.org' });
      expect(res.body).not.toHaveProperty('show_map');
      expect(res.body).not.toHaveProperty('show_map_link');
    });

    it('search looks in email and website', async () => {
      const w = uniq('mail').replace(/\W/g, '').toLowerCase();
      const a = await mk({ email: `${w}@example.org` });
      const b = await mk({ website: `http://${w}.example.org` });
      const res = await t().api('get', `organizers?search=${w}`);
      expect(res.body.organizers.map((x: { id: number }) => x.id).sort()).toEqual([a.id, b.id].sort());
    });

    it('json_ld on single read names the organizer', async () => {
      const o = await mk({ email: 'x@example.org' });
      const res = await t().api('get', `organizers/${o.id}`);
      expect(res.body.json_ld).toMatchObject({ name: o.organizer });
    });
  });
});
