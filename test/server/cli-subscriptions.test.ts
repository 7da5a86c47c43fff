/**
 * `npm run cli -- subscribe` and `subscriptions list|refresh|remove` on a data directory, against
 * a real feed on a local `http` server: what they print, their exit codes, and what they store.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_FILE } from '../../electron/server/data-dir';
import { openDatabase, closeDatabase } from '../../electron/server/store/db';
import { tempDir } from '../helpers/temp-dir';
import { startFeedServer, type FeedServer } from '../helpers/feed-server';
import { runCli } from '../helpers/cli';

const root = resolve(import.meta.dirname, '../..');
const HOLIDAYS = readFileSync(join(root, 'test/fixtures/ics/python-icalendar/calendars/example.ics'), 'utf8');

const cli = (args: string[]) => runCli(args);

describe('CLI subscriptions', { timeout: 60_000 }, () => {
  let feed: FeedServer;
  let dataDir: string;
  const count = (sql: string) => {
    const db = openDatabase(join(dataDir, DB_FILE));
    try {
      return db.prepare(sql).pluck().get() as number;
    } finally {
      closeDatabase(db);
    }
  };
  beforeAll(async () => {
    feed = await startFeedServer();
    feed.setFeed(HOLIDAYS);
    dataDir = tempDir('almanac-cli-subscriptions-');
  });
  afterAll(async () => {
    await feed.close();
  });

  it('subscribe, list, refresh (304, then a change), remove', async () => {
    const added = await cli(['subscribe', `${feed.url}/feed.ics`, '--name', 'Public holidays', '--data-dir', dataDir]);
    expect(added.code, added.err).toBe(0);
    expect(added.out).toMatch(/^Subscribed to "Public holidays" \(calendar \d+\): 3 events from http:\/\/127\.0\.0\.1:\d+\/feed\.ics\n$/);

    const listed = await cli(['subscriptions', 'list', '--data-dir', dataDir]);
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toMatch(/\tPublic holidays\thttp:\/\/127\.0\.0\.1:\d+\/feed\.ics\t3 events, refreshed 20\d\d-/);

    const same = await cli(['subscriptions', 'refresh', '--data-dir', dataDir]);
    expect(same.code, same.err).toBe(0);
    expect(same.out).toBe('Public holidays: unchanged (the server answered 304 Not Modified)\n');

    feed.setFeed(HOLIDAYS.replace('SUMMARY:New Year\'s Day', 'SUMMARY:New Year'));
    const changed = await cli(['subscriptions', 'refresh', 'public holidays', '--data-dir', dataDir]);
    expect(changed.out).toBe('Public holidays: 0 new, 1 changed, 0 removed\n');
    expect(count("SELECT count(*) FROM events WHERE title = 'New Year'")).toBe(1);

    const removed = await cli(['subscriptions', 'remove', 'Public holidays', '--data-dir', dataDir]);
    expect(removed.code, removed.err).toBe(0);
    expect(removed.out).toBe('Removed "Public holidays" and its 3 events.\n');
    expect(count('SELECT count(*) FROM events')).toBe(0);
    expect(count('SELECT count(*) FROM calendars')).toBe(1);
  });

  it('a bad address fails with the reason, in the language asked for, storing nothing', async () => {
    const page = await cli(['subscribe', `${feed.url}/page.html`, '--data-dir', dataDir, '--lang', 'es']);
    expect(page.code).toBe(1);
    expect(page.err).toMatch(/^almanac: No se suscribió nada: Esta dirección no da un archivo iCalendar \(envió una página web\)/);
    const scheme = await cli(['subscribe', 'ftp://example.com/x.ics', '--data-dir', dataDir]);
    expect(scheme.code).toBe(1);
    expect(scheme.err).toContain('URL: Must be a calendar address starting with webcal://, https:// or http://.');
    const missing = await cli(['subscriptions', 'remove', 'Nope', '--data-dir', dataDir]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('There are no subscriptions.');
    expect(count('SELECT count(*) FROM calendars')).toBe(1);
  });
});
