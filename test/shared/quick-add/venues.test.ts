/** Quick add's venues: a name that exists, among many, whatever its accents and case; a partial name is no venue. */
import { describe, expect, it } from 'vitest';
import { parseQuickAdd } from '../../../shared/quick-add/parse';
import { nowIn } from './table';

const venues = Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, name: `Hall ${i}` }));
venues.push({ id: 9001, name: 'Café  Central' }, { id: 9002, name: 'Teatro São Luiz' });
const read = (text: string, lang: 'en' | 'pt-br' | 'es' = 'en') => parseQuickAdd(text, { lang, now: nowIn('Europe/Lisbon'), zone: 'Europe/Lisbon', defaultMinutes: 60, venues });

describe('quick add venues', () => {
  it('finds the one named among thousands, accents, spaces and case aside', () => {
    expect(read('Coffee at CAFE central friday 9am').body).toMatchObject({ title: 'Coffee', venue: 9001 });
    expect(read('Peça no teatro sao luiz sábado 21h', 'pt-br').body).toMatchObject({ title: 'Peça', venue: 9002 });
    expect(read('Gig at Hall 4999 friday 9pm').body).toMatchObject({ title: 'Gig', venue: 5000 });
    // "Hall 49" is a venue too, but the sentence names Hall 499: the whole name, not a prefix.
    expect(read('Gig at Hall 499 friday 9pm').body.venue).toBe(500);
  });

  it('keeps a name that is no venue, or a part of one, in the title', () => {
    const r = read('Coffee at Cafe friday 9am');
    expect(r.body.venue).toBeUndefined();
    expect(r.body.title).toBe('Coffee at Cafe');
    expect(read('Gig at Hall 50000 friday 9pm').body).toMatchObject({ title: 'Gig at Hall 50000' });
  });
});
