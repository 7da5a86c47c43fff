/**
 * Venues (reference §3.1, §4.2, §5.7, §7.2); the behaviour shared with organizers is in
 * _linked-suite.ts.
 */
import { describe, expect, it } from 'vitest';
import { Venue } from '../../../shared/api/records';
import { linkedSuite } from './_linked-suite';
import { VENUE_KEYS, expectInvalidParam, expectKeyOrder, uniq } from './_support';

linkedSuite('venue', ({ t, mk }) => {
  describe('venue fields', () => {
    it('stores every address field and emits them in the original order', async () => {
      const res = await t().api('post', 'venues').send({
        venue: uniq('Full Venue'),
        address: '1 Main St',
        city: 'Springfield',
        country: 'United States',
        province: 'Prov',
        state: 'IL',
        zip: '62701',
        phone: '+1 217 555 0100',
        stateprovince: 'IL',
        website: 'http://townhall.example.org',
        excerpt: 'Short',
      });
      expect(res.status).toBe(201);
      Venue.parse(res.body);
      expectKeyOrder(res.body, VENUE_KEYS, ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince', 'excerpt']);
      expect(res.body).toMatchObject({
        address: '1 Main St', city: 'Springfield', country: 'United States', province: 'Prov', state: 'IL', zip: '62701',
        phone: '+1 217 555 0100', stateprovince: 'IL', website: 'http://townhall.example.org', excerpt: '<p>Short</p>',
      });
    });

    it('stateprovince left out is set from the state (United States or no country) or else the province, as the original does', async () => {
      const us = await mk({ state: 'IL', province: 'Prov', country: 'United States' });
      expect(us.stateprovince).toBe('IL');
      expect((await mk({ state: 'TX' })).stateprovince).toBe('TX');
      const abroad = await mk({ state: 'SP', province: 'São Paulo', country: 'Brazil' });
      expect(abroad.stateprovince).toBe('São Paulo');
      expect((await mk({ province: 'Ontario', country: 'Canada' })).stateprovince).toBe('Ontario');
      expect((await mk({ stateprovince: 'Given', state: 'IL' })).stateprovince).toBe('Given');
      expect((await mk({ city: 'Nowhere' })).stateprovince).toBeUndefined();

      // An update of the region derives it again; one that leaves the region alone keeps it.
      const moved = await t().api('put', `venues/${us.id}`).send({ state: 'WI' });
      expect(moved.body.stateprovince).toBe('WI');
      expect((await t().api('put', `venues/${us.id}`).send({ city: 'Madison' })).body.stateprovince).toBe('WI');
      expect((await t().api('put', `venues/${us.id}`).send({ stateprovince: 'Dairy State' })).body.stateprovince).toBe('Dairy State');
      expect((await t().api('put', `venues/${us.id}`).send({ zip: '53703' })).body.stateprovince).toBe('Dairy State');
    });

    it('show_map and show_map_link default to true and come after the other fields', async () => {
      const v = await mk();
      expect([v.show_map, v.show_map_link]).toEqual([true, true]);
      const keys = Object.keys(v);
      expect(keys.indexOf('show_map')).toBeGreaterThan(keys.indexOf('slug'));
    });

    it.each([['false', false], ['0', false], ['true', true], ['1', true]])('show_map = %j → %j', async (input, out) => {
      const v = await mk({ show_map: input, show_map_link: input });
      expect([v.show_map, v.show_map_link]).toEqual([out, out]);
    });

    it('show_map can be switched off by update and stays off when left out', async () => {
      const v = await mk();
      expect((await t().api('put', `venues/${v.id}`).send({ show_map: 'false' })).body.show_map).toBe(false);
      expect((await t().api('put', `venues/${v.id}`).send({ city: 'Elsewhere' })).body.show_map).toBe(false);
    });

    it('show_map not a boolean word → 400', async () => {
      expectInvalidParam(await t().api('post', 'venues').send({ venue: uniq('v'), show_map: 'perhaps' }), 'show_map');
    });

    it('json_ld on single read is a schema.org Place with the address', async () => {
      const v = await mk({ address: '9 Side St', city: 'Porto', zip: '4000' });
      const res = await t().api('get', `venues/${v.id}`);
      expect(res.body.json_ld).toMatchObject({ '@type': 'Place', name: v.venue });
      expect(JSON.stringify(res.body.json_ld)).toContain('Porto');
    });

    it('search looks in address, city, zip', async () => {
      const w = uniq('Street').replace(/\W/g, '');
      const a = await mk({ address: `${w} 12` });
      const b = await mk({ city: `${w}ville` });
      const c = await mk({ zip: `${w}Z` });
      const res = await t().api('get', `venues?search=${w}`);
      expect(res.body.venues.map((x: { id: number }) => x.id).sort()).toEqual([a.id, b.id, c.id].sort());
    });
  });
});
