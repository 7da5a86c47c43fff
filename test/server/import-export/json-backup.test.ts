/** The JSON backup: lossless round trip, replace-everything restore, all or nothing. */
import { describe, it, expect } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, closeDatabase } from '../../../electron/server/store/db';
import { createStore, type Store } from '../../../electron/server/store';
import { backupText, restoreBackup, trialRestore } from '../../../electron/server/import-export/json-backup';
import { ApiError } from '../../../electron/server/errors';
import { tempDir } from '../../helpers/temp-dir';

const now = new Date('2026-03-01T12:00:00Z');
const fresh = () => createStore(openDatabase(join(tempDir('almanac-bak-'), 'almanac.sqlite')));

/** A calendar with something of everything a backup must keep. */
function fill(store: Store) {
  store.settings.update({ timezone: 'America/Sao_Paulo', per_page: 25, currency_symbol: 'R$' });
  const en = { lang: 'en' as const, now, siteZone: 'America/Sao_Paulo' };
  const pt = { ...en, lang: 'pt-br' as const };
  store.write(() => {
    const music = store.terms.create('category', { name: 'Music', description: 'Concerts', color: '#1e90ff' }, en);
    store.terms.create('category', { name: 'Jazz', parent: music }, en);
    store.terms.create('category', { name: 'Música', translation_of: music }, pt);
    const a = store.events.create(
      {
        title: 'Concert',
        start_date: '2031-05-01 19:00',
        end_date: '2031-05-01 21:00',
        timezone: 'Europe/Lisbon',
        venue: { venue: 'Hall', city: 'Lisbon', geo_lat: 38.7, geo_lng: -9.1 },
        organizer: [{ organizer: 'Arts Council', email: 'a@example.org' }],
        categories: [music, 'Jazz'],
        tags: ['outdoor'],
        cost: ['10€', '20€'],
        image: { url: 'https://example.org/poster.jpg' },
        featured: true,
      },
      en,
    );
    store.events.create({ title: 'Concerto', start_date: '2031-05-01 19:00', end_date: '2031-05-01 21:00', translation_of: a }, pt);
    const b = store.events.create({ title: 'Old', start_date: '2020-01-01', end_date: '2020-01-01', all_day: true, status: 'draft' }, en);
    store.events.trash(b, en);
    store.events.create({ title: 'Next week', start_date: '2031-05-08 19:00', end_date: '2031-05-08 21:00' }, en, { parentId: a, icsUid: 'uid-1@example.org' });
  });
}

const tablesOf = (text: string) => JSON.parse(text).tables;

describe('JSON backup', () => {
  it('backup → restore → backup gives the same tables, counts rebuilt', () => {
    const a = fresh();
    fill(a);
    const first = backupText(a.db, now);
    const b = fresh();
    restoreBackup(b.db, JSON.parse(first));
    const second = backupText(b.db, now);
    expect(tablesOf(second)).toEqual(tablesOf(first));
    expect(second).toBe(first);
    expect(b.db.prepare("SELECT name, count FROM terms WHERE name IN ('Music', 'outdoor') ORDER BY name").all()).toEqual([
      { name: 'Music', count: 1 },
      { name: 'outdoor', count: 1 },
    ]);
    expect(b.settings.get()).toMatchObject({ timezone: 'America/Sao_Paulo', per_page: 25, currency_symbol: 'R$' });
    expect(b.db.prepare("SELECT color FROM terms WHERE name = 'Music'").get()).toEqual({ color: '#1e90ff' });
  });

  it('refuses a backup whose category colour is not #rrggbb (it would reach a style attribute)', () => {
    const a = fresh();
    fill(a);
    const backup = JSON.parse(backupText(a.db, now));
    const terms = backup.tables.terms;
    terms.rows[0][terms.columns.indexOf('color')] = 'red;background:url(x)';
    const target = fresh();
    let refused: ApiError | undefined;
    try {
      restoreBackup(target.db, backup);
    } catch (e) {
      refused = e as ApiError;
    }
    expect([refused?.code, String(refused?.vars.reason)]).toEqual(['import-file-invalid', expect.stringMatching(/color .*#rrggbb/)]);
    expect(target.db.prepare('SELECT count(*) AS n FROM terms').get()).toEqual({ n: 0 });
  });

  it('a restore replaces a non-empty calendar and keeps a copy of the old one', () => {
    const a = fresh();
    fill(a);
    const text = backupText(a.db, now);
    const target = fresh();
    target.write(() => target.events.create({ title: 'Will be replaced', start_date: '2031-01-01', end_date: '2031-01-01' }, { lang: 'en', now, siteZone: 'UTC' }));
    const report = restoreBackup(target.db, JSON.parse(text), target.db.name);
    expect(report.previousCopy && existsSync(report.previousCopy)).toBe(true);
    expect(target.db.prepare("SELECT count(*) AS n FROM events WHERE title = 'Will be replaced'").get()).toEqual({ n: 0 });
    expect(report.counts.events).toBe(4);
  });

  it('a broken backup is refused with a reason and the calendar is left as it was', () => {
    const a = fresh();
    fill(a);
    const before = backupText(a.db, now);
    const data = JSON.parse(before);
    // A link to an event that is not in the backup: only the commit-time check can see it.
    data.tables.event_terms.rows.push([999999, 1, 0]);
    const refused = (() => {
      try {
        restoreBackup(a.db, data);
      } catch (err) {
        return err as ApiError;
      }
    })();
    expect(refused).toBeInstanceOf(ApiError);
    expect([refused!.status, refused!.code, String(refused!.vars.reason)]).toEqual([400, 'import-file-invalid', expect.stringMatching(/FOREIGN KEY/)]);
    expect(backupText(a.db, now)).toBe(before);
    for (const broken of [{}, { format: 'almanac-backup', version: 9 }, { ...JSON.parse(before), tables: { ...JSON.parse(before).tables, events: { columns: ['nope'], rows: [] } } }]) {
      expect(() => restoreBackup(a.db, broken)).toThrow(ApiError);
    }
    expect(backupText(a.db, now)).toBe(before);
    closeDatabase(a.db);
  });

  it('refuses values the API could not serve, naming the row, and a dry run refuses them too', () => {
    const a = fresh();
    fill(a);
    const before = backupText(a.db, now);
    const spoil = (table: string, column: string, value: unknown) => {
      const data = JSON.parse(before);
      const t = data.tables[table];
      t.rows[0][t.columns.indexOf(column)] = value;
      return { data, id: t.rows[0][t.columns.indexOf('id')] };
    };
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['events', 'status', 'bogus', /^"events" row \d+ has status "bogus", which is not one of publish, future/],
      ['venues', 'lang', 'fr', /^"venues" row \d+ has lang "fr", which is not one of en, pt-br, es/],
      ['terms', 'lang', 'xx', /^"terms" row \d+ has lang "xx"/],
      ['events', 'start_local', '1 May 2031', /^"events" row \d+ has start_local "1 May 2031", which is not a date stored as YYYY-MM-DD HH:MM:SS/],
      ['organizers', 'modified_utc', '', /^"organizers" row \d+ has modified_utc ""/],
      ['events', 'timezone', 'Mars/Olympus_Mons', /^"events" row \d+ has timezone "Mars\/Olympus_Mons", which is not a time zone/],
    ];
    for (const [table, column, value, reason] of cases) {
      const { data, id } = spoil(table, column, value);
      for (const attempt of [() => restoreBackup(a.db, data), () => trialRestore(a.db, data)]) {
        let refused: ApiError | undefined;
        try {
          attempt();
        } catch (err) {
          refused = err as ApiError;
        }
        expect(refused, `${table}.${column}`).toBeInstanceOf(ApiError);
        expect(String(refused!.vars.reason)).toMatch(reason);
        expect(String(refused!.vars.reason)).toContain(`row ${id} `);
      }
      expect(backupText(a.db, now)).toBe(before);
    }
    closeDatabase(a.db);
  });

  it('a dry run counts what a restore would store and leaves the calendar as it was', () => {
    const a = fresh();
    fill(a);
    const b = fresh();
    const before = backupText(b.db, now);
    const counts = trialRestore(b.db, JSON.parse(backupText(a.db, now)));
    expect(counts.events).toBe(4);
    expect(counts.terms).toBe(4);
    expect(backupText(b.db, now)).toBe(before);
    // A link to nothing, which only the commit would have caught.
    const data = JSON.parse(backupText(a.db, now));
    data.tables.event_terms.rows.push([999999, 1, 0]);
    let refused: ApiError | undefined;
    try {
      trialRestore(b.db, data);
    } catch (err) {
      refused = err as ApiError;
    }
    expect(String(refused?.vars.reason)).toMatch(/FOREIGN KEY constraint failed: "event_terms" links to a missing "events"/);
    expect(backupText(b.db, now)).toBe(before);
    closeDatabase(a.db);
    closeDatabase(b.db);
  });
});

describe('JSON backup of reminders (issue 16)', () => {
  /** An event with two reminders, one of whose firings the user dismissed. */
  function withReminders(store: Store): number {
    const ctx = { lang: 'en' as const, now, siteZone: 'UTC' };
    return store.write(() => {
      const id = store.events.create({ title: 'Dentist', start_date: '2026-03-01 13:00', end_date: '2026-03-01 14:00', timezone: 'UTC' }, ctx);
      store.reminders.set(store.events.get(id)!, [{ action: 'display', trigger: '-PT1H' }, { action: 'audio', trigger: '-PT10M', ical: 'X-APPLE-DEFAULT-ALARM:TRUE' }], 'all');
      store.reminders.reschedule([id], now);
      store.reminders.takeDue(now);
      store.reminders.dismiss(store.reminders.due(now)[0].key, now);
      return id;
    });
  }

  it('carries the reminders and what was done with each firing, so a restore rings nothing again', () => {
    const a = fresh();
    const id = withReminders(a);
    const text = backupText(a.db, now);
    expect(tablesOf(text).event_reminders.rows).toHaveLength(2);
    expect(tablesOf(text).reminder_state.rows).toHaveLength(1);
    const b = fresh();
    restoreBackup(b.db, JSON.parse(text));
    b.write(() => b.reminders.refill(now));
    expect(b.reminders.of(b.events.get(id)!)).toEqual([
      { action: 'display', trigger: '-PT1H' },
      { action: 'audio', trigger: '-PT10M', ical: 'X-APPLE-DEFAULT-ALARM:TRUE' },
    ]);
    expect(backupText(b.db, now)).toBe(text);
    // The dismissed 12:00 firing stays dismissed; the 12:50 one is still to come.
    expect(b.reminders.due(now)).toEqual([]);
    expect(b.write(() => b.reminders.takeDue(new Date('2026-03-01T12:50:00Z'))).map((r) => r.fire_utc)).toEqual(['2026-03-01 12:50:00']);
  });

  it('a backup made before reminders existed still restores, with none', () => {
    const a = fresh();
    fill(a);
    const old = JSON.parse(backupText(a.db, now));
    delete old.tables.event_reminders;
    delete old.tables.reminder_state;
    const b = fresh();
    withReminders(b);
    restoreBackup(b.db, old);
    expect(b.db.prepare('SELECT count(*) FROM event_reminders').pluck().get()).toBe(0);
    expect(b.db.prepare('SELECT count(*) FROM reminder_due').pluck().get()).toBe(0);
    expect(b.events.list({ lang: 'en', statuses: ['publish'], page: 1, perPage: 50 }).total).toBeGreaterThan(0);
  });
});
