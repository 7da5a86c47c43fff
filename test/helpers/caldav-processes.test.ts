/**
 * The CalDAV test servers leave nothing behind: not when a test stops them, and not when the
 * process that started them is killed outright (a crashed or killed test worker).
 */
import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startRadicale, startXandikos, makeCalendar, putIcs, getResource, deleteResource, resourcesOf, runCalDavSuites, type CalDavTestServer } from './caldav-servers';
import { tempDir } from './temp-dir';
import { unfold } from './ics';

/** Running, as opposed to gone or a zombie waiting for whoever adopted it to reap it. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(check: () => boolean, what: string, ms = 15_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`still waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!runCalDavSuites)('CalDAV test servers', { timeout: 90_000 }, () => {
  it('stop ends the process and removes the folder', async () => {
    for (const server of [await startRadicale(), await startXandikos()]) {
      const pid = server.pid()!;
      expect(alive(pid)).toBe(true);
      await server.stop();
      expect(alive(pid)).toBe(false);
      expect(existsSync(server.dir)).toBe(false);
    }
  });

  it('die with the process that started them, even one killed with SIGKILL', async () => {
    const script = join(tempDir('almanac-orphan-'), 'start.mts');
    const helper = resolve(import.meta.dirname, 'caldav-processes.ts');
    writeFileSync(
      script,
      `import { startRadicale, startXandikos } from ${JSON.stringify(helper)};
const r = await startRadicale();
const x = await startXandikos();
console.log(JSON.stringify({ pids: [r.pid(), x.pid()], dirs: [r.dir, x.dir] }));
setInterval(() => {}, 1000);
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const started = await new Promise<{ pids: number[]; dirs: string[] }>((ok, fail) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) ok(JSON.parse(out));
      });
      child.once('exit', (code) => fail(new Error(`the script ended (${code}) before starting both servers`)));
    });
    try {
      for (const pid of started.pids) expect(alive(pid)).toBe(true);
      child.kill('SIGKILL');
      for (const pid of started.pids) await until(() => !alive(pid), `server ${pid} to end`);
    } finally {
      for (const dir of started.dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});

const fixture = (name: string) => readFileSync(resolve(import.meta.dirname, '../fixtures/ics', name), 'utf8');

describe.skipIf(!runCalDavSuites).each([
  ['Radicale', startRadicale],
  ['Xandikos', startXandikos],
] as const)('a third client writing to %s', (_name, start) => {
  it('stores Thunderbird’s and Apple’s events as they sent them, and enforces their preconditions', { timeout: 90_000 }, async () => {
    const server: CalDavTestServer = await start();
    try {
      const calendar = await makeCalendar(server, 'shared', { displayName: 'Shared' });
      const written = [
        ...resourcesOf(fixture('thunderbird.ics')).map((r) => ({ ...r, client: 'thunderbird' as const })),
        ...resourcesOf(fixture('apple.ics')).map((r) => ({ ...r, client: 'apple' as const })),
      ];
      expect(written).toHaveLength(4);
      const stored = [];
      for (const r of written) {
        const put = await putIcs(server, calendar, r.text, { client: r.client });
        expect(put.status, `${r.client} ${r.uid}`).toBe(201);
        stored.push({ ...r, ...put });
      }
      // Thunderbird names the resource after the UID; Apple picks a name of its own.
      expect(stored[0].href).toBe(`${calendar}${stored[0].uid}.ics`);
      expect(stored[2].href).toMatch(/\/[0-9A-F-]{36}\.ics$/);
      expect(stored[2].href).not.toContain(stored[2].uid);

      for (const r of stored) {
        const back = await getResource(server, r.href);
        expect(back.status).toBe(200);
        // What other clients keep in an event outlives the server (which may refold or reorder it).
        for (const line of unfold(r.text).split('\r\n').filter((l) => /^(X-MOZ|X-APPLE-TRAVEL|UID|SUMMARY|DTSTART|CATEGORIES|LOCATION)/.test(l))) {
          expect(unfold(back.text), `${r.uid}: ${line}`).toContain(line);
        }
        // Radicale rewrites an alarm's "TRIGGER;VALUE=DURATION:" to the equivalent "TRIGGER:": the
        // same alarm, other bytes, which is why the sync must compare meanings, never texts.
        if (r.text.includes('BEGIN:VALARM')) expect(back.text).toMatch(/BEGIN:VALARM[\s\S]*TRIGGER(;VALUE=DURATION)?:-PT15M[\s\S]*END:VALARM/);
        if (r.text.includes('X-APPLE-STRUCTURED-LOCATION')) {
          // Apple's map pin ("geo:lat,lon", comma unescaped) comes back changed on both: Radicale
          // 3.1 cuts the value at the comma and loses the longitude; Xandikos escapes the comma
          // and quotes the parameters. The sync must keep, as its merge base, the copy the server
          // returns after a PUT, and never "repair" what another client's property became.
          const pin = /^X-APPLE-STRUCTURED-LOCATION;.*X-TITLE="?Moscone Center"?:(.*)$/m.exec(unfold(back.text))?.[1];
          expect(pin).toBe(server.kind === 'radicale' ? 'geo:37.784173' : 'geo:37.784173\\,-122.401557');
        }
      }

      // The same UID under another name is refused (one event, one resource), each server its way.
      // Xandikos answers a 207 whose only response is the 412: a client taking any 2xx for
      // success would believe the event stored.
      const twin = await putIcs(server, calendar, stored[0].text, { client: 'apple' });
      expect(twin.body).toContain('no-uid-conflict');
      if (server.kind === 'radicale') expect(twin.status).toBe(409);
      else {
        expect(twin.status).toBe(207);
        expect(twin.body).toContain('HTTP/1.1 412 Precondition Failed');
      }
      expect((await getResource(server, twin.href)).status).toBe(404);
      // An edit based on an old version is refused, not applied over the newer one.
      const stale = await putIcs(server, calendar, stored[1].text.replace('SUMMARY:Stargazing', 'SUMMARY:Stale edit'), { name: stored[1].href.split('/').pop(), ifMatch: '"not-the-current-etag"' });
      expect(stale.status).toBe(412);
      expect(unfold((await getResource(server, stored[1].href)).text)).toContain('SUMMARY:Stargazing');
      // With the current ETag it goes through, and so does a delete.
      const current = (await getResource(server, stored[1].href)).etag!;
      const edit = await putIcs(server, calendar, stored[1].text.replace('SUMMARY:Stargazing', 'SUMMARY:Stargazing (moved)'), { name: stored[1].href.split('/').pop(), ifMatch: current });
      // Radicale answers 201 even when the resource existed.
      expect(edit.status).toBe(server.kind === 'radicale' ? 201 : 204);
      expect(unfold((await getResource(server, stored[1].href)).text)).toContain('SUMMARY:Stargazing (moved)');
      expect([200, 204]).toContain(await deleteResource(server, stored[3].href, (await getResource(server, stored[3].href)).etag!));
      expect((await getResource(server, stored[3].href)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
