/**
 * The CalDAV test servers leave nothing behind: not when a test stops them, and not when the
 * process that started them is killed outright (a crashed or killed test worker).
 */
import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startRadicale, startXandikos } from './caldav-servers';
import { tempDir } from './temp-dir';

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

describe('CalDAV test servers', { timeout: 90_000 }, () => {
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
