/**
 * The desktop shell's reminders (issue 16) with a fake Electron: what each notification says, that
 * a summary is one notification, that a click brings the window up on the event, and that the app
 * keeps running in the tray only when the setting says so.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReminderMessage } from '../../shared/api/due-reminders';
import { createReminderNotifier, languageOf, notificationFor } from '../../electron/main/reminder-notifications';
import { createTrayKeeper } from '../../electron/main/tray';
import { trayIconPng } from '../../electron/main/tray-icon';
import { startDesktopApp, type DesktopApp } from '../../electron/main/lifecycle';
import { IPC } from '../../shared/desktop-bridge';
import { FakeElectron, FakeNotification, FakeTray, removeTempDirs, until, type FakeWindow } from './fake-electron';
import { inflateSync } from 'node:zlib';
import { makeDue as due } from '../helpers/due-reminder';


beforeEach(() => {
  FakeNotification.made = [];
  FakeNotification.supported = true;
});

describe('what a notification says', () => {
  it('names the event and when it starts in the system zone and language; quiet unless the alarm asked for a sound', () => {
    const en = notificationFor({ type: 'due', reminder: due() }, 'en', 'UTC');
    expect({ ...en, body: en.body.replace(/\s/g, ' ') }).toEqual({ title: 'Dentist & check-up', body: 'Wed, Mar 12, 10:00 AM', silent: true, eventId: 7 });
    // ICU versions differ on "07:00" or "7:00" and on the space before AM; the words do not.
    expect(notificationFor({ type: 'due', reminder: due() }, 'pt-br', 'America/Sao_Paulo').body).toMatch(/^qua\., 12 de mar\., 0?7:00$/);
    expect(notificationFor({ type: 'due', reminder: due({ all_day: true, start_date: '2031-03-12 00:00:00' }) }, 'es', 'UTC').body).toBe('mié, 12 mar, todo el día');
    expect(notificationFor({ type: 'due', reminder: due({ action: 'audio' }) }, 'en', 'UTC').silent).toBe(false);
    // Numeric and named references too, as WordPress-style titles carry them.
    expect(notificationFor({ type: 'due', reminder: due({ title: 'Ana&#8217;s lunch &ndash; &euro;5' }) }, 'en', 'UTC').title).toBe('Ana\u2019s lunch \u2013 \u20ac5');
  });

  it('makes what came due while closed one notification: the newest by name, the rest as a count', () => {
    const reminders = Array.from({ length: 20 }, (_, i) => due({ key: `m${i}`, title: `Meeting ${i}` }));
    const n = notificationFor({ type: 'missed', count: 250, reminders }, 'en', 'UTC');
    expect(n.title).toBe('While Almanac was closed');
    expect(n.body.replace(/\s/g, ' ')).toBe('Meeting 19 at Wed, Mar 12, 10:00 AM; Meeting 18 at Wed, Mar 12, 10:00 AM; Meeting 17 at Wed, Mar 12, 10:00 AM; and 247 more');
    expect(n.eventId).toBeUndefined();
  });

  it('picks the language from the system locale', () => {
    expect([languageOf('pt-BR'), languageOf('es-419'), languageOf('de-DE'), languageOf(undefined)]).toEqual(['pt-br', 'es', 'en', 'en']);
  });
});

describe('the notifier', () => {
  function setup() {
    let listener: ((m: ReminderMessage) => void) | undefined;
    const opened: number[] = [];
    let shown = 0;
    const logs: string[] = [];
    const notifier = createReminderNotifier({
      Notification: FakeNotification,
      subscribe: (l) => {
        listener = l;
        return () => (listener = undefined);
      },
      showWindow: () => shown++,
      openEvent: (id) => opened.push(id),
      language: () => 'en',
      log: (line) => logs.push(line),
    });
    return { notifier, send: (m: ReminderMessage) => listener?.(m), opened, shown: () => shown, logs, subscribed: () => listener !== undefined };
  }

  it('shows one per reminder, holds it until clicked, and a click brings the window up on the event', () => {
    const t = setup();
    t.send({ type: 'due', reminder: due() });
    t.send({ type: 'missed', count: 3, reminders: [due({ key: 'a' }), due({ key: 'b' }), due({ key: 'c' })] });
    expect(FakeNotification.made.map((n) => [n.options.title, n.shown])).toEqual([
      ['Dentist & check-up', true],
      ['While Almanac was closed', true],
    ]);
    expect(t.notifier.open).toBe(2);
    FakeNotification.made[0].click();
    expect(t.shown()).toBe(1);
    expect(t.opened).toEqual([7]);
    // The summary's click shows the window, where the summary waits with its list.
    FakeNotification.made[1].click();
    expect(t.shown()).toBe(2);
    expect(t.opened).toEqual([7]);
    expect(t.notifier.open).toBe(0);
  });

  it('stops listening and closes what is open when the app stops', () => {
    const t = setup();
    t.send({ type: 'due', reminder: due() });
    t.notifier.stop();
    expect(FakeNotification.made[0].closed).toBe(true);
    expect(t.subscribed()).toBe(false);
  });

  it('says so once where the system has no notifications, and shows none', () => {
    FakeNotification.supported = false;
    const t = setup();
    t.send({ type: 'due', reminder: due() });
    expect(FakeNotification.made).toEqual([]);
    expect(t.logs).toEqual(['native notifications are not supported here; reminders show in the window only']);
  });
});

describe('the tray', () => {
  function keeper(keep: { on: boolean }, fail = false) {
    const trays: FakeTray[] = [];
    const calls: string[] = [];
    const k = createTrayKeeper({
      createTray: () => {
        if (fail) throw new Error('no system tray');
        const t = new FakeTray();
        trays.push(t);
        return t;
      },
      buildMenu: (template) => ({ template }),
      keepRunning: () => keep.on,
      showWindow: () => calls.push('show'),
      quit: () => calls.push('quit'),
      language: () => 'pt-br',
      log: (line) => calls.push(line),
    });
    return { k, trays, calls };
  }

  it('with the setting off, closing the window quits and no icon is made', () => {
    const { k, trays } = keeper({ on: false });
    k.sync();
    expect(k.windowClosed()).toBe(false);
    expect(trays).toEqual([]);
  });

  it('with it on, keeps one icon whose menu opens the calendar or quits, in the system language', () => {
    const { k, trays, calls } = keeper({ on: true });
    k.sync();
    expect(k.windowClosed()).toBe(true);
    expect(k.windowClosed()).toBe(true);
    expect(trays).toHaveLength(1);
    expect(trays[0].menu?.filter((i) => i.label).map((i) => i.label)).toEqual(['Abrir o Almanac', 'Sair do Almanac']);
    trays[0].emit('click');
    trays[0].choose('tray-open');
    trays[0].choose('tray-quit');
    expect(calls).toEqual(['show', 'show', 'quit']);
  });

  it('turned off while running: the icon goes at the next close, and the app quits', () => {
    const setting = { on: true };
    const { k, trays } = keeper(setting);
    k.sync();
    setting.on = false;
    expect(k.windowClosed()).toBe(false);
    expect(trays[0].destroyed).toBe(true);
  });

  it('quits rather than running with no way back in when the desktop has no tray', () => {
    const { k, calls } = keeper({ on: true }, true);
    expect(k.windowClosed()).toBe(false);
    expect(calls[0]).toMatch(/no tray icon could be made/);
  });

  it('draws its icon as a valid 32×32 RGBA PNG with the page and the accent colour', () => {
    const png = trayIconPng(32);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([32, 32, 8, 6]);
    const idatLength = png.readUInt32BE(33);
    const pixels = inflateSync(png.subarray(41, 41 + idatLength));
    const at = (x: number, y: number) => [...pixels.subarray(y * 129 + 1 + x * 4, y * 129 + 1 + x * 4 + 4)];
    expect(at(16, 20)).toEqual([255, 255, 255, 255]);
    expect(at(16, 9)).toEqual([0x4f, 0x46, 0xe5, 255]);
    expect(at(0, 0)).toEqual([0, 0, 0, 0]);
  });
});

describe('in the desktop app', () => {
  let offset = 0;
  const running: Array<{ fake: FakeElectron; app: DesktopApp<FakeWindow> }> = [];
  afterEach(async () => {
    for (const { fake, app } of running.splice(0)) {
      if (!fake.app.ended) fake.app.quit();
      await until(() => fake.app.ended || !app.server()).catch(() => {});
    }
    offset = 0;
  });
  afterAll(removeTempDirs);

  async function launch() {
    const fake = new FakeElectron({ serverOptions: { now: () => new Date(Date.now() + offset), reminderTimer: false } });
    const app = startDesktopApp(fake.deps());
    running.push({ fake, app });
    await app.ready;
    return { fake, app };
  }

  async function eventWithReminder(app: DesktopApp<FakeWindow>, startsInMinutes: number) {
    const srv = app.server()!;
    const start = new Date(Date.now() + startsInMinutes * 60_000);
    const utc = start.toISOString().slice(0, 19).replace('T', ' ');
    const res = await fetch(`${srv.apiRoot}events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${srv.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Dentist', start_date: utc, end_date: utc, timezone: 'UTC', reminders: ['-PT1M'] }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  }

  it('shows the server’s reminder natively; a click focuses the window and opens the event there', async () => {
    const { fake, app } = await launch();
    const id = await eventWithReminder(app, 10);
    offset = 9.5 * 60_000;
    await app.server()!.reminders.tick();
    expect(FakeNotification.made.map((n) => n.options.title)).toEqual(['Dentist']);
    const contents = fake.window!.webContents;
    fake.ipcMain.send(contents, `${app.server()!.url}/`, IPC.commandListeners, 1);
    const focused = fake.window!.focusCount;
    FakeNotification.made[0].click();
    expect(fake.window!.focusCount).toBe(focused + 1);
    expect(contents.sent).toEqual([{ channel: IPC.command, args: [{ name: 'open-event', id }] }]);
  });

  it('closing the window quits by default (the setting is off)', async () => {
    const { fake, app } = await launch();
    expect(app.server()!.store.settings.get().keep_running_in_tray).toBe(false);
    fake.window!.close();
    await until(() => fake.app.ended);
    expect(fake.trays).toEqual([]);
  });

  it('with "keep running in the tray", reminders still come after the window closed, and a click reopens it on the event', async () => {
    const { fake, app } = await launch();
    app.server()!.store.settings.update({ keep_running_in_tray: true });
    const id = await eventWithReminder(app, 10);
    fake.window!.close();
    expect(fake.app.ended).toBe(false);
    expect(fake.app.windows).toHaveLength(0);
    expect(fake.trays).toHaveLength(1);
    offset = 9.5 * 60_000;
    await app.server()!.reminders.tick();
    expect(FakeNotification.made.map((n) => n.options.title)).toEqual(['Dentist']);
    FakeNotification.made[0].click();
    await until(() => fake.app.windows.length === 1);
    // The new page is still loading: the event waits until it listens.
    const contents = fake.window!.webContents;
    expect(contents.sent).toEqual([]);
    fake.ipcMain.send(contents, `${app.server()!.url}/`, IPC.commandListeners, 1);
    expect(contents.sent).toEqual([{ channel: IPC.command, args: [{ name: 'open-event', id }] }]);
    // Quit from the tray stops the server as a quit always does.
    fake.trays[0].choose('tray-quit');
    await until(() => fake.app.ended);
    expect(app.server()).toBeUndefined();
    expect(fake.trays[0].destroyed).toBe(true);
  });
});
