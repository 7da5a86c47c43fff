/**
 * Slugs made from titles: plain ASCII titles take a shorter path than the rest (an import slugs
 * every event), and must get the very slug the general path gives.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { slugify } from '../../../electron/server/store/posts';
import { openDatabase, closeDatabase, type DB } from '../../../electron/server/store/db';
import { createStore } from '../../../electron/server/store';
import { tempDir } from '../../helpers/temp-dir';

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

describe('uniqueSlug', () => {
  /** A store whose slug-copy lookups (the GLOB over `<base>-n`) count the rows they read. */
  function countingStore() {
    const db = openDatabase(join(tempDir('almanac-slugs-'), 'almanac.sqlite'));
    opened.push(db);
    const counted = { rows: 0 };
    const prepare = db.prepare.bind(db);
    (db as { prepare: unknown }).prepare = (sql: string) => {
      const statement = prepare(sql);
      if (!/slug GLOB/.test(sql)) return statement;
      const all = statement.all.bind(statement);
      (statement as { all: unknown }).all = (...args: unknown[]) => {
        const rows = all(...args);
        counted.rows += rows.length;
        return rows;
      };
      return statement;
    };
    return { store: createStore(db), counted };
  }
  const opened: DB[] = [];
  afterEach(() => opened.splice(0).forEach((db) => closeDatabase(db)));

  it('numbers 3,000 events of one title in order, reading each earlier copy about once (not once per new copy)', () => {
    const { store, counted } = countingStore();
    const ctx = { lang: 'en' as const, now: new Date(), siteZone: 'UTC' };
    const n = 3000;
    store.write(() => {
      for (let i = 0; i < n; i++) store.events.create({ title: 'Standup', start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 10:15:00' }, ctx);
    });
    const slugs = store.db.prepare("SELECT slug FROM events WHERE slug LIKE 'standup%' ORDER BY id").pluck().all() as string[];
    expect(slugs.slice(0, 3)).toEqual(['standup', 'standup-2', 'standup-3']);
    expect(slugs[n - 1]).toBe(`standup-${n}`);
    expect(new Set(slugs).size).toBe(n);
    // Quadratic, as it was: n²/2 = 4.5 million rows read.
    expect(counted.rows).toBeLessThan(2 * n);
  });

  it('still finds a free number after copies made behind its back (another process on the file)', () => {
    const { store } = countingStore();
    const ctx = { lang: 'en' as const, now: new Date(), siteZone: 'UTC' };
    const create = (title: string) => store.write(() => store.events.create({ title, start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00' }, ctx));
    create('Retro');
    create('Retro');
    for (const n of [3, 4]) store.db.prepare('UPDATE events SET slug = ? WHERE id = ?').run(`retro-${n}`, create('Other'));
    const id = create('Retro');
    expect(store.db.prepare('SELECT slug FROM events WHERE id = ?').pluck().get(id)).toBe('retro-5');
  });

  it('numbers again from where it was after a write is rolled back (a batch of a site stored a second time)', () => {
    const { store } = countingStore();
    const ctx = { lang: 'en' as const, now: new Date(), siteZone: 'UTC' };
    const yoga = () => store.events.create({ title: 'Yoga', start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00' }, ctx);
    expect(() =>
      store.write(() => {
        for (let i = 0; i < 5; i++) yoga();
        throw new Error('a record of the batch cannot be stored');
      }),
    ).toThrow();
    const ids = store.write(() => [yoga(), yoga()]);
    expect(ids.map((id) => store.db.prepare('SELECT slug FROM events WHERE id = ?').pluck().get(id))).toEqual(['yoga', 'yoga-2']);
  });
});
