/**
 * Reminders as they come due, in the calendar window (issue 16): the stream from the server, the
 * banners it leaves on screen until the user snoozes or dismisses them, the one "while Almanac was
 * closed" summary, and in a browser tab a Web Notification once the user allowed them (asked on a
 * press of "Turn on notifications", never at load). The desktop app's own notification comes from
 * its main process, so the window there shows banners only.
 */
import { create } from 'zustand';
import type { DueJson, ReminderMessage, Snooze } from '@shared/api/due-reminders';
import { ApiError, isAbort } from '../api/client';
import { decodeEntities } from '../calendar/toEventInput';
import { api } from '../state/api';
import { toastError } from '../state/toasts';
import { useUi } from '../state/ui';
import { isLanguage } from '@shared/i18n/languages';
import { useCalendar } from '../state/calendar';
import { useSettings } from '../state/settings';
import { useCalendarSettings } from '../state/calendarSettings';

/** More than this many waiting at once are one summary, never a stack of banners. */
export const MAX_BANNERS = 3;
/** Waits between reconnections: a restarting server is back within seconds, a gone one is not hammered. */
const RETRY_MS = [1_000, 2_000, 5_000, 15_000, 30_000];

export interface MissedSummary {
  count: number;
  /** The newest few, by name. */
  reminders: DueJson[];
  /** When the newest of them was due (ISO): "Dismiss all" and "Close" reach up to here. */
  until: string;
}

const QUIET_KEY = 'almanac.reminders.quietUntil';

/**
 * Reminders due up to this moment were acknowledged in a summary (closed or dismissed): a reload
 * does not summarise them again. One timestamp, so it never grows; a snoozed one comes due later.
 */
function quietUntil(): string {
  try {
    return localStorage.getItem(QUIET_KEY) ?? '';
  } catch {
    return '';
  }
}

function keepQuiet(until: string): void {
  try {
    if (until > quietUntil()) localStorage.setItem(QUIET_KEY, until);
  } catch {
    // Private windows may refuse storage: the summary may show again after a reload, nothing worse.
  }
}

const newest = (list: DueJson[], after = '') => list.reduce((max, r) => (r.due_at > max ? r.due_at : max), after);

export type Permission = NotificationPermission | 'unsupported';

interface AlertsState {
  /** Banners on screen, oldest first. */
  alerts: DueJson[];
  /** "While Almanac was closed", shown once until closed. */
  missed: MissedSummary | null;
  permission: Permission;
  /** Applies one message from the server. */
  receive(m: ReminderMessage): void;
  /** After (re)connecting: what is due and not on screen yet. */
  catchUp(due: DueJson[]): void;
  /** Takes a reminder off screen (snoozed, dismissed, or gone on the server). */
  remove(key: string): void;
  closeMissed(): void;
  setPermission(p: Permission): void;
}

const by = (list: DueJson[]) => new Set(list.map((r) => r.key));

export const useAlerts = create<AlertsState>()((set, get) => ({
  alerts: [],
  missed: null,
  permission: notificationPermission(),
  receive(m) {
    if (m.type === 'due') {
      const others = get().alerts.filter((a) => a.key !== m.reminder.key);
      set({ alerts: [...others, m.reminder] });
      const sound = m.reminder.action === 'audio' || useCalendarSettings.getState().settings.reminder_sound;
      notify(m.reminder, sound);
      // The desktop app's native notification rings already (for AUDIO alarms); the chime is the tab's.
      if (sound && !window.almanac) chime();
      return;
    }
    const keys = by(m.reminders);
    set({ missed: { count: m.count, reminders: m.reminders, until: newest(m.reminders, get().missed?.until) }, alerts: get().alerts.filter((a) => !keys.has(a.key)) });
  },
  catchUp(due) {
    const { alerts, missed } = get();
    const known = new Set([...by(alerts), ...by(missed?.reminders ?? [])]);
    const quiet = quietUntil();
    const fresh = due.filter((r) => !known.has(r.key) && !(r.fired && r.due_at <= quiet));
    if (!fresh.length) return;
    // A window opened after a long time away: one summary, not a banner each.
    if (alerts.length + fresh.length > MAX_BANNERS) {
      const all = [...(missed?.reminders ?? []), ...alerts, ...fresh];
      set({ alerts: [], missed: { count: (missed?.count ?? 0) + alerts.length + fresh.length, reminders: all.slice(-20), until: newest(all, missed?.until) } });
    } else set({ alerts: [...alerts, ...fresh] });
  },
  remove(key) {
    const { alerts, missed } = get();
    set({ alerts: alerts.filter((a) => a.key !== key) });
    if (missed?.reminders.some((r) => r.key === key)) {
      const reminders = missed.reminders.filter((r) => r.key !== key);
      set({ missed: reminders.length ? { ...missed, count: Math.max(reminders.length, missed.count - 1), reminders } : null });
    }
  },
  closeMissed: () => {
    const missed = get().missed;
    if (missed) keepQuiet(missed.until);
    set({ missed: null });
  },
  setPermission: (permission) => set({ permission }),
}));

function notificationPermission(): Permission {
  if (typeof window === 'undefined' || window.almanac || typeof Notification === 'undefined') return 'unsupported';
  return Notification.permission;
}

/** Asked on the user's press only: browsers ignore (or hold against the site) a request made at load. */
export async function askPermission(): Promise<void> {
  if (typeof Notification === 'undefined') return;
  const p = await Notification.requestPermission();
  useAlerts.getState().setPermission(p);
}

/** Shown notifications, held until closed: one no longer referenced may lose its click. */
const shown = new Map<string, Notification>();

/** The line under a notification's or banner's title: when the event is, as it is set. */
export type WhenText = (r: DueJson) => string;
let whenText: WhenText = (r) => r.start_date;
export function setWhenText(f: WhenText): void {
  whenText = f;
}

/** A short two-note chime (Web Audio: no sound file to ship); quiet where audio is not allowed yet. */
export function chime(): void {
  try {
    const Ctx = (window as unknown as { AudioContext?: typeof AudioContext }).AudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    [880, 660].forEach((hz, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      const at = ctx.currentTime + i * 0.18;
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.17);
    });
    setTimeout(() => void ctx.close(), 600);
  } catch {
    // No audio here: the banner is still there.
  }
}

function notify(r: DueJson, sound = false): void {
  if (useAlerts.getState().permission !== 'granted' || typeof Notification === 'undefined') return;
  try {
    shown.get(r.key)?.close();
    // Silent unless the user asked for sound (Settings) or the alarm is an AUDIO one (issue 16).
    const n = new Notification(decodeEntities(r.title), { body: whenText(r), tag: r.key, silent: !sound });
    shown.set(r.key, n);
    n.onclick = () => {
      window.focus();
      n.close();
      void openEvent(r.event_id);
    };
    n.onclose = () => {
      if (shown.get(r.key) === n) shown.delete(r.key);
    };
  } catch {
    // Some browsers allow notifications from a service worker only: the banner is still there.
  }
}

/** Opens the event's details card on its day, as a click on it in the calendar does. */
export async function openEvent(id: number): Promise<void> {
  try {
    const e = await api().getEvent(id);
    // A record belongs to one language: show that language's calendar, as a permalink does.
    if (isLanguage(e.i18n_language) && e.i18n_language !== useSettings.getState().contentLanguage) useSettings.getState().setContentLanguage(e.i18n_language);
    const ui = useUi.getState();
    ui.setScreen('calendar');
    useCalendar.getState().goto(e.start_date.slice(0, 10));
    ui.openDetails(e);
  } catch (err) {
    toastError((err as Error).message);
  }
}

export async function snooze(r: DueJson, how: Snooze): Promise<void> {
  try {
    await api().snoozeReminder(r.key, how);
    useAlerts.getState().remove(r.key);
  } catch (err) {
    toastError((err as Error).message);
  }
}

export async function dismiss(keys: string[]): Promise<void> {
  for (const key of keys) {
    try {
      await api().dismissReminder(key);
      useAlerts.getState().remove(key);
      shown.get(key)?.close();
    } catch (err) {
      // Dismissed elsewhere meanwhile (another window, a script): gone is what was asked.
      if (err instanceof ApiError && err.status === 404) {
        useAlerts.getState().remove(key);
        continue;
      }
      toastError((err as Error).message);
      return;
    }
  }
}

/**
 * "Dismiss all" on the summary: every reminder due up to its newest one, the ones it counts but
 * does not name included (the API lists them all), except those on screen as banners.
 */
export async function dismissSummary(): Promise<void> {
  const missed = useAlerts.getState().missed;
  if (!missed) return;
  let keys = missed.reminders.map((r) => r.key);
  try {
    const onScreen = by(useAlerts.getState().alerts);
    const due = await api().dueReminders();
    keys = [...new Set([...keys, ...due.filter((r) => r.due_at <= missed.until && !onScreen.has(r.key)).map((r) => r.key)])];
  } catch {
    // Dismiss the named ones at least.
  }
  await dismiss(keys);
  if (useAlerts.getState().missed) useAlerts.getState().closeMissed();
}

/**
 * Listens to the server until `signal` aborts, reconnecting after a drop (a restart, a sleep);
 * each connection first catches up with what came due meanwhile.
 */
export async function listen(signal: AbortSignal, wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))): Promise<void> {
  let failures = 0;
  while (!signal.aborted) {
    try {
      await api().reminderStream(
        (m) => useAlerts.getState().receive(m),
        () => {
          failures = 0;
          void api()
            .dueReminders()
            .then((due) => useAlerts.getState().catchUp(due))
            .catch(() => {});
        },
        signal,
      );
    } catch (err) {
      if (isAbort(err) || signal.aborted) return;
    }
    await wait(RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]);
  }
}
