/**
 * Starts a real Almanac server on a fresh data directory for a test file, and gives a small
 * client bound to it (token included). Each test file gets its own database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createServer, silentLogger, type AlmanacServer, type ServerOptions } from '../../electron/server';

export interface TestServer {
  server: AlmanacServer;
  dataDir: string;
  /** supertest agent on the server's URL; `api('get', 'events')` adds the token and the namespace root. */
  api(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string): request.Test;
  /** The same without the token. */
  anon(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string): request.Test;
  /** Row counts of every table, to prove a refused request changed nothing. */
  snapshot(): Record<string, number>;
  close(): Promise<void>;
}

/** A RAM disk when there is one, else the system's temporary folder: tests that write a lot run faster there. */
export const FAST_TMP = (() => {
  try {
    rmSync(mkdtempSync(join('/dev/shm', 'almanac-probe-')), { recursive: true });
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
})();

export const TABLES = ['posts', 'events', 'venues', 'organizers', 'images', 'terms', 'event_terms', 'event_organizers', 'users', 'settings'];

export async function startTestServer(opts: Partial<ServerOptions> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'almanac-test-'));
  const server = await createServer({ dataDir, port: 0, log: silentLogger, token: 'test-token-0123456789abcdef', ...opts });
  const agent = request(server.url);
  const root = '/cal/events/v1/';
  return {
    server,
    dataDir,
    api: (method, path) => agent[method](root + path).set('Authorization', `Bearer ${server.token}`),
    anon: (method, path) => agent[method](root + path),
    snapshot() {
      const out: Record<string, number> = {};
      for (const t of TABLES) out[t] = (server.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
      // Content too, not only counts: a refused update must not change a row either.
      out.checksum = (server.db.prepare(
        "SELECT total(length(title) + length(content) + length(status) + length(start_local) + length(end_local) + coalesce(venue_id, 0) + length(modified_utc)) AS n FROM events",
      ).get() as { n: number }).n;
      return out;
    },
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
