import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SIZE, isReachable, loadWindowState, restoreWindowState, trackWindowState, windowStateFile, type Timers } from '../../electron/main/window-state';
import { FakeWindow, removeTempDirs, tempDir } from './fake-electron';

afterAll(removeTempDirs);

const laptop = { workArea: { x: 0, y: 0, width: 1440, height: 876 } };
const monitorRight = { workArea: { x: 1440, y: 0, width: 2560, height: 1400 } };

/** Timers the test advances by hand. */
function manualTimers() {
  let pending: Array<{ fn: () => void; id: number }> = [];
  let next = 1;
  const timers: Timers = {
    setTimeout: (fn) => {
      const id = next++;
      pending.push({ fn, id });
      return id;
    },
    clearTimeout: (id) => {
      pending = pending.filter((p) => p.id !== id);
    },
  };
  return {
    timers,
    get pending() {
      return pending.length;
    },
    runAll() {
      const due = pending;
      pending = [];
      for (const p of due) p.fn();
    },
  };
}

function newWindow(x = 100, y = 100, width = 1000, height = 700) {
  return new FakeWindow(
    { x, y, width, height, minWidth: 640, minHeight: 480, show: false, title: 'Almanac', webPreferences: {} as never },
    () => {},
  );
}

describe('restoring the window', () => {
  it('uses the saved bounds while they are on a connected display', () => {
    const saved = { bounds: { x: 1600, y: 100, width: 1200, height: 800 }, maximized: false };
    expect(restoreWindowState(saved, [laptop, monitorRight])).toEqual(saved);
  });

  it('ignores a position on a display that is gone, keeping the size when it fits', () => {
    const saved = { bounds: { x: 1600, y: 100, width: 1200, height: 800 }, maximized: true };
    expect(restoreWindowState(saved, [laptop])).toEqual({ bounds: { width: 1200, height: 800 }, maximized: true });
  });

  it('ignores a window whose title bar would be above or beside every screen', () => {
    expect(isReachable({ x: 100, y: -500, width: 800, height: 600 }, [laptop])).toBe(false);
    expect(isReachable({ x: 1400, y: 100, width: 800, height: 600 }, [laptop])).toBe(false); // 40 px showing
    expect(isReachable({ x: 1300, y: 100, width: 800, height: 600 }, [laptop])).toBe(true); // 140 px showing
  });

  it('falls back to the default size for a missing, broken or too large state', () => {
    expect(restoreWindowState(undefined, [laptop])).toEqual({ bounds: DEFAULT_SIZE, maximized: false });
    expect(restoreWindowState({ bounds: { width: 'wide' } }, [laptop])).toEqual({ bounds: DEFAULT_SIZE, maximized: false });
    expect(restoreWindowState({ bounds: { x: 5000, y: 0, width: 3000, height: 2000 } }, [laptop])).toEqual({ bounds: DEFAULT_SIZE, maximized: false });
    const dir = tempDir('almanac-ws-');
    writeFileSync(windowStateFile(dir), '{ not json');
    expect(loadWindowState(windowStateFile(dir), [laptop])).toEqual({ bounds: DEFAULT_SIZE, maximized: false });
    expect(loadWindowState(join(dir, 'missing.json'), [laptop])).toEqual({ bounds: DEFAULT_SIZE, maximized: false });
  });

  it('never makes a window smaller than the minimum', () => {
    expect(restoreWindowState({ bounds: { x: 10, y: 10, width: 50, height: 20 } }, [laptop]).bounds).toEqual({ x: 10, y: 10, width: 640, height: 480 });
  });
});

describe('saving the window state', () => {
  it('saves once, a moment after moving and resizing stop', () => {
    const file = windowStateFile(tempDir('almanac-ws-'));
    const clock = manualTimers();
    const win = newWindow();
    trackWindowState(win, file, { timers: clock.timers });
    win.setBounds({ x: 120 });
    win.setBounds({ x: 140, width: 1100 });
    expect(existsSync(file)).toBe(false);
    expect(clock.pending).toBe(1);
    clock.runAll();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ bounds: { x: 140, y: 100, width: 1100, height: 700 }, maximized: false });
  });

  it('keeps the normal bounds and the maximized flag of a maximized window', () => {
    const file = windowStateFile(tempDir('almanac-ws-'));
    const win = newWindow(300, 200, 900, 600);
    trackWindowState(win, file, { timers: manualTimers().timers });
    win.maximize();
    win.bounds = { x: 0, y: 0, width: 1440, height: 876 };
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ bounds: { x: 300, y: 200, width: 900, height: 600 }, maximized: true });
    win.unmaximize();
    expect(JSON.parse(readFileSync(file, 'utf8')).maximized).toBe(false);
  });

  it('does not remember a minimized or full-screen window, and saves a pending change on flush', () => {
    const file = windowStateFile(tempDir('almanac-ws-'));
    const clock = manualTimers();
    const win = newWindow();
    const tracker = trackWindowState(win, file, { timers: clock.timers });
    win.setBounds({ x: 150 });
    tracker.flush();
    expect(JSON.parse(readFileSync(file, 'utf8')).bounds.x).toBe(150);
    win.minimized = true;
    win.bounds = { x: -32000, y: -32000, width: 160, height: 28 }; // what Windows reports
    win.emit('move');
    clock.runAll();
    expect(JSON.parse(readFileSync(file, 'utf8')).bounds.x).toBe(150);
  });
});
