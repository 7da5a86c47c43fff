/**
 * A real third-party client for the sync tests: vdirsyncer (CalDAV ⇄ a folder of .ics files) and
 * khal (a terminal calendar reading that folder), the Debian packages, configured in a temporary
 * folder of their own. Nobody here wrote them: what they make of Almanac's resources, and what
 * Almanac makes of theirs, is what a user keeping the same calendar in a terminal would see.
 *
 * Every run is a subprocess with a time limit (killed past it, with what it printed in the error)
 * under `setpriv --pdeathsig KILL` where there is one, with a fixed zone (TZ and khal's
 * local_timezone), a fixed locale and fixed date/time formats, so khal's listing reads the same
 * on any machine. No vitest in here: the bench uses it too.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Debian packages (`python3-icalendar` comes with khal; the edit script uses it through khal). */
export const CLIENT_PACKAGES = 'vdirsyncer khal';
/** khal and its libraries are Debian's, installed for the system's Python, not any other on the PATH. */
const PYTHON = '/usr/bin/python3';

export const haveThirdClients = (() => {
  const ok = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore', timeout: 20_000 }).status === 0;
  return ok('vdirsyncer', ['--version']) && ok('khal', ['--version']) && ok(PYTHON, ['-c', 'import khal, icalendar']);
})();

const hasPdeathsig = (() => {
  const r = spawnSync('setpriv', ['--help'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('--pdeathsig');
})();

/** The zone khal shows times in and the processes run under. */
export const CLIENT_ZONE = 'Europe/Lisbon';
/** Per run of either program: a sync of a few dozen resources takes a second or two here. */
const RUN_WITHIN_MS = 60_000;

export interface RunResult {
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a program to its end within `timeoutMs`; a non-zero exit or the time limit is an error with its output. */
export function run(command: string, args: string[], opts: { env?: Record<string, string>; timeoutMs?: number; input?: string } = {}): Promise<RunResult> {
  const [cmd, argv] = hasPdeathsig ? ['setpriv', ['--pdeathsig', 'KILL', '--', command, ...args]] : [command, args];
  const timeoutMs = opts.timeoutMs ?? RUN_WITHIN_MS;
  const t0 = performance.now();
  return new Promise((ok, fail) => {
    const child = spawn(cmd, argv, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
    let stdout = '';
    let stderr = '';
    // Bounded: a program that prints without end must not grow the test's memory.
    child.stdout.on('data', (d: Buffer) => (stdout = (stdout + d.toString()).slice(-1_000_000)));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-100_000)));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      fail(new Error(`${command} could not be started (${err.message}); on Debian: apt-get install ${CLIENT_PACKAGES}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const said = `\n--- stdout\n${stdout}\n--- stderr\n${stderr}`;
      if (timedOut) fail(new Error(`${command} ${args.join(' ')} did not finish within ${timeoutMs} ms${said}`));
      else if (code !== 0) fail(new Error(`${command} ${args.join(' ')} exited ${signal ?? code}${said}`));
      else ok({ stdout, stderr, ms: performance.now() - t0 });
    });
    child.stdin.end(opts.input ?? '');
  });
}

export interface ThirdClient {
  /** The folder vdirsyncer keeps the calendar in, one `.ics` file per resource: what khal reads. */
  folder: string;
  dir: string;
  /** `vdirsyncer sync` of the pair (discovering it first, the first time: call `discover` to leave that out of a timing). */
  sync(): Promise<RunResult>;
  /** `vdirsyncer discover` of the pair, once. */
  discover(): Promise<void>;
  /**
   * `khal list` between two dates, one line per event and day it is shown on:
   * `day: start|end|title|location|description` (dates and times as khal shows them, in CLIENT_ZONE).
   */
  list(from: string, to: string): Promise<string[]>;
  /** Runs khal with the config (`khal new ...`, `khal printcalendars`). */
  khal(...args: string[]): Promise<RunResult>;
  /** Edits an event through khal's own Python API, as its editor's Save does (see khal-edit.py). */
  edit(uid: string, change: KhalEdit): Promise<RunResult>;
  /** The files of the folder: name → text. */
  files(): Map<string, string>;
  /** Removes the config folder (the calendar folder with it). */
  remove(): void;
}

/** One change khal's editor can make (see khal-edit.py for how each is applied). */
export type KhalEdit =
  | { description: string }
  | { location: string }
  /** Moves the event (the whole series) to this zone, keeping its wall-clock start and end times. */
  | { zone: string }
  | { delete: true };

const HERE = dirname(fileURLToPath(import.meta.url));
const EDIT_SCRIPT = resolve(HERE, 'khal-edit.py');

/**
 * vdirsyncer pairing one CalDAV collection (`calendarUrl`, basic auth) with a folder, and khal
 * reading that folder. The password goes to vdirsyncer through a file read by `password.fetch`,
 * never on a command line; the folder is the user's only (0700). `timeoutMs` bounds a sync
 * (default RUN_WITHIN_MS; the bench's thousands of resources need more).
 */
export function thirdClient(calendarUrl: string, user: string, password: string, opts: { timeoutMs?: number } = {}): ThirdClient {
  const dir = mkdtempSync(join(tmpdir(), 'almanac-khal-'));
  const folder = join(dir, 'calendar');
  mkdirSync(folder);
  mkdirSync(join(dir, 'status'));
  const secret = join(dir, 'password');
  writeFileSync(secret, password, { mode: 0o600 });
  const vdirConfig = join(dir, 'vdirsyncer.conf');
  // `collections = null`: the pair is exactly this collection and this folder, nothing discovered around them.
  writeFileSync(
    vdirConfig,
    [
      '[general]',
      `status_path = "${join(dir, 'status')}/"`,
      '',
      '[pair almanac]',
      'a = "almanac_folder"',
      'b = "almanac_caldav"',
      'collections = null',
      '',
      '[storage almanac_folder]',
      'type = "filesystem"',
      `path = "${folder}/"`,
      'fileext = ".ics"',
      '',
      '[storage almanac_caldav]',
      'type = "caldav"',
      `url = "${calendarUrl}"`,
      `username = "${user}"`,
      `password.fetch = ["command", "cat", "${secret}"]`,
      '',
    ].join('\n'),
  );
  const khalConfig = join(dir, 'khal.conf');
  writeFileSync(
    khalConfig,
    [
      '[calendars]',
      '[[almanac]]',
      `path = ${folder}`,
      'type = calendar',
      '',
      '[locale]',
      `local_timezone = ${CLIENT_ZONE}`,
      `default_timezone = ${CLIENT_ZONE}`,
      'timeformat = %H:%M',
      'dateformat = %Y-%m-%d',
      'longdateformat = %Y-%m-%d',
      'datetimeformat = %Y-%m-%d %H:%M',
      'longdatetimeformat = %Y-%m-%d %H:%M',
      'firstweekday = 0',
      '',
      '[default]',
      'default_calendar = almanac',
      '',
      '[sqlite]',
      `path = ${join(dir, 'khal.db')}`,
      '',
    ].join('\n'),
  );
  // A home of its own: neither program may read the machine's user config or cache.
  const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), TZ: CLIENT_ZONE, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1' };
  let discovered = false;
  const discover = async () => {
    if (discovered) return;
    await run('vdirsyncer', ['-c', vdirConfig, 'discover', 'almanac'], { env });
    discovered = true;
  };
  const khal = (...args: string[]) => run('khal', ['-c', khalConfig, ...args], { env });
  return {
    folder,
    dir,
    discover,
    async sync() {
      await discover();
      return run('vdirsyncer', ['-c', vdirConfig, 'sync', 'almanac'], { env, timeoutMs: opts.timeoutMs });
    },
    async list(from, to) {
      // A day heading before each day's events: an event over several days is listed on each.
      const out = await khal('list', '--day-format', '#{date}', '--format', '{start}|{end}|{title}|{location}|{description}', from, to);
      const lines: string[] = [];
      let day = '';
      for (const line of out.stdout.split('\n')) {
        if (line.startsWith('#')) day = line.slice(1).trim();
        else if (line.trim() !== '') lines.push(`${day}: ${line}`);
      }
      return lines;
    },
    khal,
    edit: (uid, change) => run(PYTHON, [EDIT_SCRIPT, khalConfig, uid, JSON.stringify(change)], { env }),
    files() {
      const out = new Map<string, string>();
      for (const name of readdirSync(folder).sort()) if (name.endsWith('.ics')) out.set(name, readFileSync(join(folder, name), 'utf8'));
      return out;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
