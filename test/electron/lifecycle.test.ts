/**
 * The desktop app's lifecycle with a fake Electron and the real server on a temporary data
 * directory: what a user would notice at start, at a second launch, at quit, and when the port is
 * taken.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type Server } from 'node:net';
import { join } from 'node:path';
import { startDesktopApp, type DesktopApp } from '../../electron/main/lifecycle';
import { MissingAddonError } from '../../electron/main/native-sqlite';
import { DEFAULT_PORT } from '../../electron/server';
import { DB_FILE, DISCOVERY_FILE, TOKEN_FILE } from '../../electron/server/data-dir';
import { IPC } from '../../shared/desktop-bridge';
import { findMenuItem } from '../../electron/main/menu';
import { FakeElectron, LockTable, removeTempDirs, ROOT, tempDir, until, type FakeWindow } from './fake-electron';
import { calendarText, startHostileCalDav, vevent } from '../helpers/hostile-caldav';

const running: Array<{ fake: FakeElectron; app: DesktopApp<FakeWindow> }> = [];

function launch(fake = new FakeElectron()) {
  const app = startDesktopApp(fake.deps());
  running.push({ fake, app });
  return { fake, app };
}

async function launched(fake?: FakeElectron) {
  const l = launch(fake);
  await l.app.ready;
  return l;
}

/** Quits as a user does by closing the window, and waits until the app has really ended. */
async function closeAndWait(fake: FakeElectron) {
  fake.window?.close();
  await until(() => fake.app.ended);
}

afterEach(async () => {
  for (const { fake, app } of running.splice(0)) {
    if (!fake.app.ended) fake.app.quit();
    await until(() => fake.app.ended || !app.server()).catch(() => {});
    await app.server()?.close();
  }
});

const dataDirArg = () => tempDir('almanac-desk-');
afterAll(removeTempDirs);

describe('start', () => {
  it('starts the server in the data directory with a per-install token and a discovery file, then shows the calendar', async () => {
    const dir = dataDirArg();
    const { fake, app } = await launched(new FakeElectron({ argv: ['electron', '.', '--data-dir', dir] }));
    const server = app.server()!;
    expect(app.dataDir).toBe(dir);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The token is created once, kept readable by the owner only.
    expect(statSync(join(dir, TOKEN_FILE)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, TOKEN_FILE), 'utf8').trim()).toBe(server.token);
    const discovery = JSON.parse(readFileSync(join(dir, DISCOVERY_FILE), 'utf8'));
    expect(discovery).toMatchObject({ pid: process.pid, port: server.port, url: server.url, apiRoot: server.apiRoot });
    expect(JSON.stringify(discovery)).not.toContain(server.token);

    // Electron's own files and the instance lock go with the data directory.
    expect(fake.app.getPath('userData')).toBe(dir);
    expect(fake.app.getPath('sessionData')).toBe(join(dir, 'Session'));
    expect(fake.app.sandboxed).toBe(true);

    const win = fake.window!;
    expect(win.loaded).toEqual([server.loginUrl]);
    expect(win.visible).toBe(true);
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, nodeIntegration: false, sandbox: true, webSecurity: true, webviewTag: false });
    expect(win.options.webPreferences.preload).toBe(join(fake.app.getAppPath(), 'out', 'preload', 'preload.cjs'));
    expect(fake.menu?.map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Window', '&Help']);

    // The calendar page really is served there, and the login URL signs it in.
    const login = await fetch(server.loginUrl, { redirect: 'manual' });
    expect(login.status).toBe(302);
    expect(login.headers.get('set-cookie')).toMatch(/HttpOnly/);
  });

  it('hands the token to the app’s own pages only', async () => {
    const { fake, app } = await launched();
    const server = app.server()!;
    const contents = fake.window!.webContents;
    expect(fake.ipcMain.sendSync(contents, `${server.url}/`, IPC.config)).toEqual({ apiBase: server.apiRoot, token: server.token, version: '0.1.0' });
    expect(fake.ipcMain.sendSync(contents, 'https://example.com/', IPC.config)).toBeNull();
    expect(fake.ipcMain.sendSync(contents, 'http://127.0.0.1:1/', IPC.config)).toBeNull();
    await expect(fake.ipcMain.invoke(contents, 'https://example.com/', IPC.openDataFolder)).rejects.toThrow(/Not available/);
    await fake.ipcMain.invoke(contents, `${server.url}/`, IPC.openDataFolder);
    expect(fake.openedPaths).toEqual([app.dataDir]);
  });

  it('uses ALMANAC_DATA_DIR, and the OS user-data folder when nothing is given', async () => {
    const dir = dataDirArg();
    const a = launch(new FakeElectron({ env: { ALMANAC_DATA_DIR: dir } }));
    expect(a.app.dataDir).toBe(dir);
    const b = launch(new FakeElectron());
    expect(b.app.dataDir).toBe(join(b.fake.appData, 'Almanac'));
    await Promise.all([a.app.ready, b.app.ready]);
    expect(existsSync(join(b.fake.appData, 'Almanac', DB_FILE))).toBe(true);
  });

  it('explains a missing Electron build of SQLite instead of failing silently, and exits', async () => {
    const fake = new FakeElectron();
    const deps = fake.deps();
    const app = startDesktopApp({
      ...deps,
      nativeBinding: () => {
        throw new MissingAddonError('The SQLite module built for Electron is missing. Run "npm run rebuild:electron".');
      },
    });
    running.push({ fake, app });
    await expect(app.ready).rejects.toThrow(/rebuild:electron/);
    expect(fake.dialog.errors).toEqual([{ title: 'Almanac could not start', content: expect.stringContaining('npm run rebuild:electron') }]);
    expect(fake.app.exitCode).toBe(1);
    expect(app.server()).toBeUndefined();
    expect(fake.app.windows).toHaveLength(0);
  });
});

describe('second launch', () => {
  it('focuses the first window and does not start a second server', async () => {
    const locks = new LockTable();
    const dir = dataDirArg();
    const argv = ['electron', '.', `--data-dir=${dir}`];
    const first = await launched(new FakeElectron({ locks, argv }));
    const win = first.fake.window!;
    win.minimize();

    const second = launch(new FakeElectron({ locks, argv }));
    expect(second.app.primary).toBe(false);
    expect(second.fake.app.ended).toBe(true); // it quit at once
    expect(second.fake.serversStarted).toHaveLength(0);
    expect(second.fake.app.windows).toHaveLength(0);

    await until(() => win.focusCount > 0);
    expect(win.restoreCount).toBe(1);
    expect(win.minimized).toBe(false);
    expect(first.fake.serversStarted).toHaveLength(1);
    expect(first.fake.app.windows).toHaveLength(1);
    // Still one server, still answering.
    expect((await fetch(`${first.app.server()!.apiRoot}events`, { headers: { Authorization: `Bearer ${first.app.server()!.token}` } })).status).toBe(200);
  });

  it('may open a second calendar (another data directory) side by side', async () => {
    const locks = new LockTable();
    const a = await launched(new FakeElectron({ locks, argv: ['electron', '.', '--data-dir', dataDirArg()] }));
    const b = await launched(new FakeElectron({ locks, argv: ['electron', '.', '--data-dir', dataDirArg()] }));
    expect(a.app.primary && b.app.primary).toBe(true);
    expect(a.app.server()!.port).not.toBe(b.app.server()!.port);
  });
});

describe('quit', () => {
  it('closes the server and the database, leaving no write-ahead log, when the window is closed', async () => {
    const { fake, app } = await launched();
    const server = app.server()!;
    const db = join(app.dataDir, DB_FILE);
    // Write something, so the database has a live write-ahead log.
    const created = await fetch(`${server.apiRoot}events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Dentist', start_date: '2030-01-02 09:00:00', end_date: '2030-01-02 10:00:00' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect(existsSync(`${db}-wal`) && statSync(`${db}-wal`).size).toBeGreaterThan(0);

    await closeAndWait(fake);
    expect(fake.app.exitCode).toBeUndefined(); // a normal quit, not a forced exit
    expect(server.db.open).toBe(false);
    expect(existsSync(`${db}-wal`)).toBe(false);
    expect(existsSync(join(app.dataDir, DISCOVERY_FILE))).toBe(false);
    await expect(fetch(server.url)).rejects.toThrow();
    expect(app.server()).toBeUndefined();

    // The event is in the database file itself.
    const again = await launched(new FakeElectron({ argv: ['electron', '.', '--data-dir', app.dataDir] }));
    const read = await fetch(`${again.app.server()!.apiRoot}events/${id}`, { headers: { Authorization: `Bearer ${again.app.server()!.token}` } });
    expect(((await read.json()) as { title: string }).title).toBe('Dentist');
  });

  it('quits cleanly on SIGTERM (a terminal or the OS asking)', async () => {
    const { fake, app } = await launched();
    const server = app.server()!;
    fake.signals.get('SIGTERM')!();
    await until(() => fake.app.ended);
    expect(server.db.open).toBe(false);
    expect(fake.app.windows).toHaveLength(0);
  });

  it('quits at once while a sync round waits on a CalDAV server that never answers (its requests aborted)', async () => {
    const dav = await startHostileCalDav();
    try {
      dav.put('a.ics', calendarText(vevent('a', 'Alpha')));
      const { fake, app } = await launched(new FakeElectron({ serverOptions: { syncIntervalMs: 0, syncDebounceMs: 0 } }));
      const server = app.server()!;
      const headers = { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' };
      const added = await fetch(`${server.apiRoot}accounts`, { method: 'POST', headers, body: JSON.stringify({ url: dav.url, username: dav.user, password: dav.password }) });
      expect(added.status).toBe(201);
      dav.misbehave = (req) => (req.path.startsWith('/home/cal/') ? 'hang' : false);
      expect((await fetch(`${server.apiRoot}sync`, { method: 'POST', headers, body: '{}' })).status).toBe(202);
      await until(() => dav.requests.some((r) => r.path.startsWith('/home/cal/')));
      await closeAndWait(fake);
      // Not the forced exit after the quit's time limit (10 s): the round ended with its requests.
      expect(fake.app.exitCode).toBeUndefined();
      expect(server.db.open).toBe(false);
    } finally {
      await dav.close();
    }
  });

  it('waits for a start-up still in progress before quitting', async () => {
    const fake = new FakeElectron();
    const app = startDesktopApp(fake.deps());
    running.push({ fake, app });
    fake.app.quit(); // before the server is up
    await until(() => fake.app.ended);
    expect(fake.serversStarted.length).toBeLessThanOrEqual(1);
    expect(app.server()).toBeUndefined();
    expect(existsSync(join(app.dataDir, DISCOVERY_FILE))).toBe(false);
  });

  it('on macOS keeps running without windows and reopens the calendar from the Dock', async () => {
    const { fake, app } = await launched(new FakeElectron({ platform: 'darwin' }));
    fake.window!.close();
    expect(fake.app.ended).toBe(false);
    expect(app.server()).toBeDefined();
    fake.app.emit('activate');
    await until(() => fake.app.windows.length === 1);
    expect(fake.window!.loaded).toEqual([app.server()!.loginUrl]);
    expect(fake.menu?.[0]).toMatchObject({ role: 'appMenu' });
  });
});

describe('port', () => {
  let blocker: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((r) => (blocker ? blocker.close(() => r()) : r()));
    blocker = undefined;
  });

  it(`falls back to a free port when ${DEFAULT_PORT} is taken, and the discovery file says which`, async () => {
    // Hold the port (if something else already has it, it is taken all the same).
    blocker = createNetServer();
    await new Promise<void>((r) => {
      blocker!.once('error', () => {
        blocker = undefined;
        r();
      });
      blocker!.listen(DEFAULT_PORT, '127.0.0.1', () => r());
    });
    const { fake, app } = await launched(new FakeElectron({ port: 'default' }));
    expect(fake.serversStarted[0]).toMatchObject({ port: DEFAULT_PORT, fallbackToFreePort: true });
    const server = app.server()!;
    expect(server.port).not.toBe(DEFAULT_PORT);
    const discovery = JSON.parse(readFileSync(join(app.dataDir, DISCOVERY_FILE), 'utf8'));
    expect(discovery.port).toBe(server.port);
    expect(discovery.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(fake.window!.loaded[0]).toContain(`127.0.0.1:${server.port}/?token=`);
  });
});

describe('menu', () => {
  const click = (fake: FakeElectron, id: string) => findMenuItem(fake.menu!, id)!.click!();

  it('File > Import runs in the main process while the page does not listen: dialog, import, report, reload', async () => {
    const { fake, app } = await launched();
    const contents = fake.window!.webContents;
    fake.dialog.openAnswers = [join(ROOT, 'test', 'fixtures', 'ics', 'outlook.ics')];
    click(fake, 'import-ics');
    await until(() => fake.dialog.messages.length === 1);
    expect(fake.dialog.opened[0].filters[0].name).toBe('iCalendar');
    expect(fake.dialog.messages[0]).toMatchObject({ type: 'info', message: 'Imported outlook.ics.' });
    expect(contents.reloads).toBe(1);
    const server = app.server()!;
    const list = await fetch(`${server.apiRoot}events?start_date=2000-01-01&status=publish,draft`, { headers: { Authorization: `Bearer ${server.token}` } });
    expect(Number(list.headers.get('x-cal-total'))).toBeGreaterThan(0);
  });

  it('menu commands go to the page once it listens, and again to the main process after a reload', async () => {
    const { fake, app } = await launched();
    const contents = fake.window!.webContents;
    fake.ipcMain.send(contents, `${app.server()!.url}/`, IPC.commandListeners, 1);
    click(fake, 'view-week');
    click(fake, 'export-json');
    expect(contents.sent).toEqual([
      { channel: IPC.command, args: [{ name: 'show-view', view: 'week' }] },
      { channel: IPC.command, args: [{ name: 'export', format: 'json' }] },
    ]);
    expect(fake.dialog.saved).toHaveLength(0);
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false, url: `${app.server()!.url}/` });
    click(fake, 'export-json');
    await until(() => fake.dialog.saved.length === 1);
    expect(contents.sent).toHaveLength(2);
  });

  it('File > Open data folder and Help > API address and token', async () => {
    const { fake, app } = await launched();
    click(fake, 'open-data-folder');
    await until(() => fake.openedPaths.length === 1);
    expect(fake.openedPaths).toEqual([app.dataDir]);
    fake.dialog.messageAnswers = [1];
    click(fake, 'api-access');
    await until(() => fake.clipboardText !== '');
    expect(fake.clipboardText).toBe(app.server()!.apiRoot);
  });
});

describe('window state across launches', () => {
  it('reopens the window where the user left it, maximized or not', async () => {
    const dir = dataDirArg();
    const argv = ['electron', '.', '--data-dir', dir];
    const first = await launched(new FakeElectron({ argv }));
    first.fake.window!.setBounds({ x: 200, y: 150, width: 1000, height: 700 });
    first.fake.window!.maximize();
    await closeAndWait(first.fake);
    expect(JSON.parse(readFileSync(join(dir, 'window-state.json'), 'utf8'))).toEqual({ bounds: { x: 200, y: 150, width: 1000, height: 700 }, maximized: true });

    const second = await launched(new FakeElectron({ argv }));
    const win = second.fake.window!;
    expect(win.options).toMatchObject({ x: 200, y: 150, width: 1000, height: 700 });
    expect(win.maximized).toBe(true);
  });

  it('ignores a saved position on a display that is no longer connected', async () => {
    const dir = dataDirArg();
    writeFileSync(join(dir, 'window-state.json'), JSON.stringify({ bounds: { x: 2200, y: 100, width: 900, height: 700 }, maximized: false }));
    const { fake } = await launched(new FakeElectron({ argv: ['electron', '.', '--data-dir', dir] }));
    const o = fake.window!.options;
    expect(o.x).toBeUndefined();
    expect(o.y).toBeUndefined();
    expect({ width: o.width, height: o.height }).toEqual({ width: 900, height: 700 });
  });
});
