/**
 * Every records language sees the calendars it has (issue 27 §3): events synced from a CalDAV
 * server (Radicale), from a subscription, or imported from an iCalendar file that says nothing of
 * language have none of their own, so the pt-br and es lists, searches and exports show them as
 * the English ones do; records made in a language keep it; an older calendar file's synced and
 * subscribed events lose the English they were stamped with (migration 12).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { discoverAccount } from '../../../electron/server/caldav/discovery';
import { accountSecretKey } from '../../../electron/server/secrets';
import { openDatabase, closeDatabase } from '../../../electron/server/store/db';
import { migrations } from '../../../electron/server/store/migrations';
import { makeCalendar, putIcs, runCalDavSuites, startRadicale, type CalDavTestServer } from '../../helpers/caldav-servers';
import { startFeedServer, type FeedServer } from '../../helpers/feed-server';
import { startTestServer, type TestServer } from '../../helpers/server';
import { tempDir } from '../../helpers/temp-dir';
import { downloadText } from './_series';

const LANGS = ['en', 'pt-br', 'es'] as const;
const WINDOW = { start_date: '2031-01-01', end_date: '2031-12-31', per_page: 50 };

function vcalendar(uid: string, summary: string, day: string, extra = ''): string {
  return [
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Third party//EN', 'BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20300101T000000Z',
    `DTSTART:${day}T180000Z`, `DTEND:${day}T190000Z`, `SUMMARY:${summary}`, 'DESCRIPTION:Kanzlei meeting', extra, 'END:VEVENT', 'END:VCALENDAR', '',
  ].filter(Boolean).join('\r\n');
}

async function titlesIn(t: TestServer, lang: string, query: Record<string, string | number> = {}): Promise<string[]> {
  const res = await t.api('get', 'events').query({ ...WINDOW, ...query, i18n_language: lang });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Number(res.headers['x-wp-total'])).toBe(res.body.events.length);
  return (res.body.events as Array<{ title: string }>).map((e) => e.title).sort();
}

/** What every language must see of `title`: in its list, its search, and its iCalendar export. */
async function expectInEveryLanguage(t: TestServer, title: string, word: string) {
  for (const lang of LANGS) {
    expect(await titlesIn(t, lang), lang).toContain(title);
    expect(await titlesIn(t, lang, { search: word }), `${lang} search`).toContain(title);
    const ics = await downloadText(t, 'export', { start_date: '2031-01-01', i18n_language: lang });
    expect(ics, `${lang} export`).toContain(`SUMMARY:${title}`);
  }
}

describe('a subscription', () => {
  let t: TestServer;
  let feed: FeedServer;
  beforeAll(async () => {
    t = await startTestServer();
    feed = await startFeedServer();
  });
  afterAll(async () => {
    await feed?.close();
    await t?.close();
  });

  it('shows its events in every language, subscribed from any of them', async () => {
    feed.setFeed(vcalendar('holiday-1@example.org', 'Carnival', '20310304'));
    const res = await t.api('post', 'subscriptions').query({ i18n_language: 'pt-br' }).send({ url: `${feed.url}/feed.ics` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expectInEveryLanguage(t, 'Carnival', 'kanzlei');
    // A refresh that changes the event keeps it in every language.
    feed.setFeed(vcalendar('holiday-1@example.org', 'Carnival day', '20310304'));
    expect((await t.api('post', `subscriptions/${res.body.id}/refresh`)).status).toBe(200);
    for (const lang of LANGS) expect(await titlesIn(t, lang)).toContain('Carnival day');
    // Its calendar's messages come in the reader's language; its events stay.
    feed.setFeed('<!DOCTYPE html><html><body>Moved</body></html>');
    expect((await t.api('post', `subscriptions/${res.body.id}/refresh`)).status).toBeGreaterThanOrEqual(200);
    const errorIn = async (lang: string) =>
      ((await t.api('get', 'calendars').query({ i18n_language: lang })).body as Array<{ id: number; subscription?: { last_error: string | null } }>).find((c) => c.id === res.body.id)?.subscription?.last_error;
    expect(await errorIn('en')).toMatch(/does not give an iCalendar file/);
    expect(await errorIn('pt-br')).toMatch(/não fornece um arquivo iCalendar/);
    expect(await errorIn('es')).toMatch(/no da un archivo iCalendar/);
    for (const lang of LANGS) expect(await titlesIn(t, lang)).toContain('Carnival day');
  });

  it('leaves the records made in a language in that language only', async () => {
    const made = await t.api('post', 'events').query({ i18n_language: 'es' }).send({ title: 'Cena', start_date: '2031-03-05 20:00:00', end_date: '2031-03-05 22:00:00' });
    expect(made.status).toBe(201);
    expect(made.body.i18n_language).toBe('es');
    expect(await titlesIn(t, 'es')).toEqual(['Carnival day', 'Cena']);
    expect(await titlesIn(t, 'pt-br')).toEqual(['Carnival day']);
    expect(await titlesIn(t, 'en')).toEqual(['Carnival day']);
  });
});

describe('pages of a list with events of both kinds', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('interleave them by start, each once, whatever the page size', async () => {
    const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Third party//EN'];
    for (let d = 1; d <= 9; d += 2) ics.push('BEGIN:VEVENT', `UID:odd-${d}@example.org`, 'DTSTAMP:20300101T000000Z', `DTSTART:2031060${d}T100000Z`, `DTEND:2031060${d}T110000Z`, `SUMMARY:Shared ${d}`, 'END:VEVENT');
    ics.push('END:VCALENDAR', '');
    expect((await t.api('post', 'import').query({ format: 'ics' }).set('Content-Type', 'text/calendar').send(ics.join('\r\n'))).status).toBe(200);
    for (let d = 2; d <= 8; d += 2) {
      expect((await t.api('post', 'events').query({ i18n_language: 'es' }).send({ title: `Propio ${d}`, start_date: `2031-06-0${d} 10:00:00`, end_date: `2031-06-0${d} 11:00:00`, timezone: 'UTC' })).status).toBe(201);
    }
    const whole = await titlesOrdered(t, { per_page: 50 });
    expect(whole).toEqual(['Shared 1', 'Propio 2', 'Shared 3', 'Propio 4', 'Shared 5', 'Propio 6', 'Shared 7', 'Propio 8', 'Shared 9']);
    const paged: string[] = [];
    for (let page = 1; page <= 3; page++) paged.push(...(await titlesOrdered(t, { per_page: 4, page })));
    expect(paged).toEqual(whole);
    expect(await titlesOrdered(t, { per_page: 50 }, 'en')).toEqual(['Shared 1', 'Shared 3', 'Shared 5', 'Shared 7', 'Shared 9']);
  });
});

async function titlesOrdered(t: TestServer, query: Record<string, string | number>, lang = 'es'): Promise<string[]> {
  const res = await t.api('get', 'events').query({ start_date: '2031-06-01', end_date: '2031-06-30', ...query, i18n_language: lang });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Number(res.headers['x-wp-total'])).toBe(lang === 'es' ? 9 : 5);
  return (res.body.events as Array<{ title: string }>).map((e) => e.title);
}

describe('an iCalendar file', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('that says nothing of language is shown in every language, imported through any', async () => {
    const res = await t.api('post', 'import').query({ format: 'ics', i18n_language: 'es' }).set('Content-Type', 'text/calendar').send(vcalendar('file-1@example.org', 'Board meeting', '20310410'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expectInEveryLanguage(t, 'Board meeting', 'kanzlei');
  });

  it('that names a language (Almanac\'s own exports do) keeps it', async () => {
    const res = await t.api('post', 'import').query({ format: 'ics' }).set('Content-Type', 'text/calendar').send(vcalendar('file-2@example.org', 'Reunião', '20310411', 'X-ALMANAC-LANGUAGE:pt-br'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await titlesIn(t, 'pt-br')).toContain('Reunião');
    expect(await titlesIn(t, 'en')).not.toContain('Reunião');
    expect(await titlesIn(t, 'es')).not.toContain('Reunião');
  });
});

describe.runIf(runCalDavSuites)('a CalDAV calendar (Radicale)', () => {
  let dav: CalDavTestServer;
  let t: TestServer;
  let calendarUrl: string;
  let accountId: number;
  beforeAll(async () => {
    dav = await startRadicale();
    calendarUrl = await makeCalendar(dav, 'team', { displayName: 'Team' });
    t = await startTestServer({ syncIntervalMs: 0, syncDebounceMs: 0 });
    const found = await discoverAccount(dav.url, { user: dav.user, password: dav.password });
    const store = t.server.store;
    const account = store.write(() =>
      store.accounts.add(
        { name: 'team', serverUrl: found.serverUrl, username: dav.user, principalUrl: found.principalUrl, homeUrl: found.homeUrl, createdUtc: new Date().toISOString() },
        found.calendars.map((c) => ({ url: c.url, name: c.displayName, color: c.color, ctag: null, syncToken: null, hasSyncCollection: c.supportsSyncCollection, readOnly: c.readOnly, synced: true })),
      ),
    );
    accountId = account.id;
    t.server.secrets!.set(accountSecretKey(account.id), dav.password);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await dav?.stop();
  });

  it('shows the events another client put there in every language', async () => {
    expect((await putIcs(dav, calendarUrl, vcalendar('team-1@example.org', 'Sprint review', '20310512'))).status).toBe(201);
    const [report] = await t.server.sync.syncNow([accountId]);
    expect(report.error, JSON.stringify(report)).toBeUndefined();
    await expectInEveryLanguage(t, 'Sprint review', 'kanzlei');
  });

  it('keeps the language of an event made here in that calendar, there and back', async () => {
    const calendar = t.server.store.accounts.calendars().find((c) => c.url === calendarUrl)!.id;
    const made = await t.api('post', 'events').query({ i18n_language: 'pt-br' }).send({ title: 'Retrospectiva', start_date: '2031-05-13 10:00:00', end_date: '2031-05-13 11:00:00', calendar });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const [report] = await t.server.sync.syncNow([accountId]);
    expect(report.error, JSON.stringify(report)).toBeUndefined();
    expect(await titlesIn(t, 'pt-br')).toContain('Retrospectiva');
    expect(await titlesIn(t, 'en')).not.toContain('Retrospectiva');
  });

  it('an older calendar file: synced and subscribed events lose the English they were stamped with (migration 12)', async () => {
    // The file as an Almanac before issue 27 left it: the synced event stored as English.
    const dir = tempDir('almanac-lang-mig-');
    const file = join(dir, 'almanac.sqlite');
    t.server.db.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(join(t.dataDir, 'almanac.sqlite'), file);
    const raw = new Database(file);
    raw.exec("UPDATE sync_guard SET applying = 1; UPDATE events SET lang = 'en' WHERE lang = ''; UPDATE sync_guard SET applying = 0;");
    const step = migrations.findIndex((m) => m.name === 'synced and subscribed events have no language of their own');
    raw.pragma(`user_version = ${migrations[step - 1].version}`);
    const outboxBefore = raw.prepare('SELECT count(*) FROM dav_outbox').pluck().get();
    raw.close();
    // Only that step runs again: the later ones already shaped this file.
    const db = openDatabase(file, { migrations: migrations.slice(0, step + 1) });
    const langOf = (title: string) => db.prepare('SELECT lang FROM events WHERE title = ?').pluck().get(title);
    expect(langOf('Sprint review')).toBe('');
    // Made here in Portuguese (its copy on the server says so): kept.
    expect(langOf('Retrospectiva')).toBe('pt-br');
    // Nothing is sent to the server for it.
    expect(db.prepare('SELECT count(*) FROM dav_outbox').pluck().get()).toBe(outboxBefore);
    closeDatabase(db);
  });
});
