/**
 * Builds a calendar of realistic size for the benchmarks: events over three years in three
 * languages, with venues, organizers, categories and tags, written through the store itself (the
 * same code path as the API), in one transaction.
 */
import type { Store } from '../electron/server/store';
import type { Language } from '../shared/i18n/languages';
import { DateTime } from 'luxon';

const WORDS = 'concert lecture workshop market festival meetup reading screening tasting tour class party exhibition recital fair walk talk game dinner brunch'.split(' ');
const ADJ = 'spring summer autumn winter morning evening late early open community family jazz folk classical modern local annual weekly grand little'.split(' ');
const CITIES = ['Lisbon', 'Porto', 'Madrid', 'Seville', 'São Paulo', 'Rio de Janeiro', 'Boston', 'Denver', 'Toronto', 'Dublin'];
const LANGS: Language[] = ['en', 'pt-br', 'es'];

/** Small deterministic PRNG so every run builds the same calendar. */
export function rng(seed = 42) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The same generator with the draws the soak and the reliability tests make. */
export function seededRandom(seed: number) {
  const next = rng(seed);
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
  };
}
export type SeededRandom = ReturnType<typeof seededRandom>;

export interface SeedResult {
  events: number;
  venueIds: Record<Language, number[]>;
  organizerIds: Record<Language, number[]>;
  categoryIds: Record<Language, number[]>;
  tagIds: Record<Language, number[]>;
}

export function seed(store: Store, opts: { events: number; now: Date; zone?: string }): SeedResult {
  const rand = rng();
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const zone = opts.zone ?? 'Europe/Lisbon';
  const start = DateTime.fromJSDate(opts.now, { zone }).minus({ years: 1 }).startOf('day');
  const spanHours = 3 * 365 * 24;
  const out: SeedResult = { events: 0, venueIds: { en: [], 'pt-br': [], es: [] }, organizerIds: { en: [], 'pt-br': [], es: [] }, categoryIds: { en: [], 'pt-br': [], es: [] }, tagIds: { en: [], 'pt-br': [], es: [] } };

  store.write(() => {
    for (const lang of LANGS) {
      const ctx = { lang, now: opts.now, siteZone: zone };
      for (let i = 0; i < 200; i++) {
        out.venueIds[lang].push(
          store.venues.create(
            { venue: `${pick(ADJ)} hall ${lang} ${i}`, address: `${i + 1} ${pick(ADJ)} street`, city: pick(CITIES), zip: String(10000 + i), geo_lat: 38 + rand() * 4, geo_lng: -9 + rand() * 3 },
            ctx,
          ).id,
        );
      }
      for (let i = 0; i < 100; i++) out.organizerIds[lang].push(store.organizers.create({ organizer: `${pick(ADJ)} society ${lang} ${i}`, email: `org${i}@example.org` }, ctx).id);
      for (let i = 0; i < 30; i++) out.categoryIds[lang].push(store.terms.create('category', { name: `${pick(WORDS)} ${lang} ${i}` }, ctx));
      for (let i = 0; i < 100; i++) out.tagIds[lang].push(store.terms.create('tag', { name: `tag ${lang} ${i}` }, ctx));
    }
  });
  // Committed every 5,000 events: the benchmark data needs no single transaction.
  for (let from = 0; from < opts.events; from += 5000) store.write(() => {
    for (let i = from; i < Math.min(opts.events, from + 5000); i++) {
      const lang = LANGS[i % 3];
      const begins = start.plus({ hours: Math.floor(rand() * spanHours) });
      const hours = 1 + Math.floor(rand() * 4);
      store.events.create(
        {
          title: `${pick(ADJ)} ${pick(WORDS)} ${i}`,
          description: `${pick(ADJ)} ${pick(WORDS)} with ${pick(ADJ)} ${pick(WORDS)} in ${pick(CITIES)}. ${'Bring friends. '.repeat(1 + (i % 5))}`,
          start_date: begins.toFormat('yyyy-MM-dd HH:mm:ss'),
          end_date: begins.plus({ hours }).toFormat('yyyy-MM-dd HH:mm:ss'),
          timezone: zone,
          cost: [`${5 * (i % 7)}€`],
          featured: i % 17 === 0,
          venue: pick(out.venueIds[lang]),
          organizer: [pick(out.organizerIds[lang])],
          categories: [pick(out.categoryIds[lang])],
          tags: [pick(out.tagIds[lang]), pick(out.tagIds[lang])],
        },
        { lang, now: opts.now, siteZone: zone },
      );
      out.events++;
    }
  });
  return out;
}

/** Zones of the seeded series: daylight saving in both hemispheres (Lisbon, New York, Sydney) and none (São Paulo, Tokyo). */
const SERIES_ZONES = ['Europe/Lisbon', 'America/New_York', 'America/Sao_Paulo', 'Australia/Sydney', 'Asia/Tokyo'];
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

export interface SeriesSeedResult {
  series: number;
  /** Occurrence rows written for them (the first events included). */
  rows: number;
}

/**
 * Weekly series on top of `seed`'s calendar, written through the store as the API writes them
 * (the event, then its series, which writes the occurrences up to the horizon): starting over the
 * same three years, half open-ended and half bounded (by COUNT or by UNTIL), in several zones, one
 * in four on two or three weekdays. Uses the venues, organizers and terms `seed` made.
 */
export function seedSeries(store: Store, seeded: SeedResult, opts: { series: number; now: Date }): SeriesSeedResult {
  const rand = rng(7);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const first = DateTime.fromJSDate(opts.now, { zone: 'UTC' }).minus({ years: 1 }).startOf('day');
  const before = store.db.prepare('SELECT count(*) FROM events').pluck().get() as number;
  // 100 series per transaction: each writes up to a few hundred rows.
  for (let from = 0; from < opts.series; from += 100) store.write(() => {
    for (let i = from; i < Math.min(opts.series, from + 100); i++) {
      const lang = LANGS[i % 3];
      const zone = SERIES_ZONES[i % SERIES_ZONES.length];
      const begins = DateTime.fromObject(first.plus({ days: Math.floor(rand() * 3 * 365) }).toObject(), { zone }).set({ hour: 7 + Math.floor(rand() * 13), minute: pick([0, 15, 30, 45]) });
      const days = i % 4 === 0 ? [...new Set([begins.weekday - 1, Math.floor(rand() * 7), Math.floor(rand() * 7)])].sort() : [begins.weekday - 1];
      let rule = `FREQ=WEEKLY;BYDAY=${days.map((d) => WEEKDAYS[d]).join(',')}`;
      if (i % 2 === 1) {
        rule += i % 4 === 1 ? `;COUNT=${5 + Math.floor(rand() * 60)}` : `;UNTIL=${begins.plus({ weeks: 4 + Math.floor(rand() * 60) }).toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'")}`;
      }
      const ctx = { lang, now: opts.now, siteZone: zone };
      const id = store.events.create(
        {
          title: `${pick(ADJ)} ${pick(WORDS)} series ${i}`,
          description: `Every week: ${pick(ADJ)} ${pick(WORDS)} in ${pick(CITIES)}.`,
          start_date: begins.toFormat('yyyy-MM-dd HH:mm:ss'),
          end_date: begins.plus({ minutes: 60 + 30 * Math.floor(rand() * 4) }).toFormat('yyyy-MM-dd HH:mm:ss'),
          timezone: zone,
          venue: pick(seeded.venueIds[lang]),
          organizer: [pick(seeded.organizerIds[lang])],
          categories: [pick(seeded.categoryIds[lang])],
          tags: [pick(seeded.tagIds[lang])],
        },
        ctx,
      );
      store.series.create(id, { rules: [rule], rdates: [], exdates: [] });
    }
  });
  return { series: opts.series, rows: (store.db.prepare('SELECT count(*) FROM events').pluck().get() as number) - before };
}
