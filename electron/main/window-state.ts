/**
 * The window's size and position, remembered across launches in `window-state.json` in the data
 * directory. A saved position is used only if the window would still be reachable on one of the
 * displays connected now (a laptop undocked from its second monitor must not open off-screen).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const WINDOW_STATE_FILE = 'window-state.json';

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DisplayLike {
  workArea: Rectangle;
}

export interface WindowState {
  /** The normal (not maximized) bounds; `x`/`y` left out when the OS should place the window. */
  bounds: { x?: number; y?: number; width: number; height: number };
  maximized: boolean;
}

export const DEFAULT_SIZE = { width: 1280, height: 860 };
export const MIN_SIZE = { width: 640, height: 480 };
/** How much of the window must lie on a display for its saved position to be used. */
const VISIBLE = { width: 120, height: 60 };

export function windowStateFile(dataDir: string): string {
  return join(dataDir, WINDOW_STATE_FILE);
}

function overlap(a: Rectangle, b: Rectangle): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/** True when a good part of the window's top (where the title bar is) lies on some display's work area. */
export function isReachable(bounds: Rectangle, displays: readonly DisplayLike[]): boolean {
  const top: Rectangle = { x: bounds.x, y: bounds.y, width: bounds.width, height: Math.min(bounds.height, VISIBLE.height) };
  return displays.some((d) => {
    const o = overlap(top, d.workArea);
    return o.width >= Math.min(VISIBLE.width, bounds.width) && o.height >= Math.min(VISIBLE.height, bounds.height);
  });
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The state to open the window with: the saved one when usable, else a default size the OS places. */
export function restoreWindowState(saved: unknown, displays: readonly DisplayLike[]): WindowState {
  const fallback: WindowState = { bounds: { ...DEFAULT_SIZE }, maximized: false };
  if (!saved || typeof saved !== 'object') return fallback;
  const s = saved as { bounds?: Record<string, unknown>; maximized?: unknown };
  const b = s.bounds;
  if (!b || !isNum(b.width) || !isNum(b.height)) return fallback;
  const width = Math.max(MIN_SIZE.width, Math.round(b.width));
  const height = Math.max(MIN_SIZE.height, Math.round(b.height));
  const maximized = s.maximized === true;
  if (isNum(b.x) && isNum(b.y)) {
    const rect = { x: Math.round(b.x), y: Math.round(b.y), width, height };
    if (isReachable(rect, displays)) return { bounds: rect, maximized };
  }
  // Off every display (or never placed): keep the size if it fits somewhere, let the OS place it.
  const fits = displays.some((d) => d.workArea.width >= width && d.workArea.height >= height);
  return { bounds: fits ? { width, height } : { ...DEFAULT_SIZE }, maximized };
}

export function loadWindowState(file: string, displays: readonly DisplayLike[]): WindowState {
  let saved: unknown;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    saved = undefined;
  }
  return restoreWindowState(saved, displays);
}

export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, file);
}

/** What of a BrowserWindow the tracker uses. */
export interface TrackedWindow {
  getBounds(): Rectangle;
  getNormalBounds(): Rectangle;
  isMaximized(): boolean;
  isMinimized(): boolean;
  isFullScreen(): boolean;
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'close', listener: () => void): unknown;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * Saves the window's state a moment after it stops moving or resizing, and at once when it closes.
 * `flush()` saves any pending change now (the app calls it on quit).
 */
export function trackWindowState(win: TrackedWindow, file: string, opts: { debounceMs?: number; timers?: Timers; onError?: (err: unknown) => void } = {}) {
  const timers = opts.timers ?? realTimers;
  const debounceMs = opts.debounceMs ?? 500;
  let pending: unknown;
  let last: WindowState | undefined;

  const capture = (): WindowState | undefined => {
    // A minimized or full-screen window's bounds are not what the user wants back next time.
    if (win.isMinimized() || win.isFullScreen()) return last;
    const maximized = win.isMaximized();
    const b = maximized ? win.getNormalBounds() : win.getBounds();
    return { bounds: { x: b.x, y: b.y, width: b.width, height: b.height }, maximized };
  };

  const save = () => {
    if (pending !== undefined) timers.clearTimeout(pending);
    pending = undefined;
    const state = capture();
    if (!state) return;
    last = state;
    try {
      saveWindowState(file, state);
    } catch (err) {
      opts.onError?.(err);
    }
  };

  const schedule = () => {
    if (pending !== undefined) timers.clearTimeout(pending);
    pending = timers.setTimeout(save, debounceMs);
  };

  for (const event of ['resize', 'move'] as const) win.on(event, schedule);
  win.on('maximize', save);
  win.on('unmaximize', save);
  win.on('close', save);

  return {
    flush() {
      if (pending !== undefined) save();
    },
  };
}
