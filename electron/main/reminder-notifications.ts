/**
 * The desktop app's reminders (issue 16): a native notification for each reminder the embedded
 * server fires, one for the "while Almanac was closed" summary, and a click that brings the window
 * up on the event. Electron's `Notification` comes in as a parameter, so tests drive this with a
 * fake; Snooze and Dismiss stay in the window's own banner (toast buttons do not reach non-MSIX
 * Windows apps, electron#51147).
 *
 * Each notification is held until it is clicked or closed: one no longer referenced is collected
 * and its click is lost (electron#36088).
 */
import type { DueJson, ReminderMessage } from '../../shared/api/due-reminders';
import type { Language } from '../../shared/i18n/languages';
import { decodeEntities } from '../../shared/content';

export interface NotificationLike {
  show(): void;
  close(): void;
  on(event: 'click' | 'close' | 'failed', listener: () => void): unknown;
}

export interface NotificationOptions {
  title: string;
  body: string;
  /** Display reminders are quiet; an AUDIO alarm asked for a sound. */
  silent: boolean;
}

export interface NotificationApi {
  new (options: NotificationOptions): NotificationLike;
  isSupported(): boolean;
}

const TEXT: Record<Language, { missed: string; more: (n: number) => string; allDay: string; at: (title: string, when: string) => string }> = {
  en: { missed: 'While Almanac was closed', more: (n) => `and ${n} more`, allDay: 'all day', at: (t, w) => `${t} at ${w}` },
  'pt-br': { missed: 'Enquanto o Almanac estava fechado', more: (n) => `e mais ${n}`, allDay: 'dia inteiro', at: (t, w) => `${t} às ${w}` },
  es: { missed: 'Mientras Almanac estaba cerrado', more: (n) => `y ${n} más`, allDay: 'todo el día', at: (t, w) => `${t} a las ${w}` },
};

const LOCALE: Record<Language, string> = { en: 'en-US', 'pt-br': 'pt-BR', es: 'es' };

/** The interface language for a system locale (`pt-BR` → pt-br, `es-419` → es, else en). */
export function languageOf(locale: string | undefined): Language {
  const l = (locale ?? '').toLowerCase();
  if (l.startsWith('pt')) return 'pt-br';
  if (l.startsWith('es')) return 'es';
  return 'en';
}

/** Titles come HTML-escaped, as the API gives them (`&#8217;` included); a notification shows text. */
const plain = decodeEntities;

/** When the event is, in the system's zone: "Wed, Mar 12, 10:00 AM", or its date and "all day". */
export function whenText(r: DueJson, language: Language, timeZone?: string): string {
  const locale = LOCALE[language];
  if (r.all_day) {
    const [y, m, d] = r.start_date.slice(0, 10).split('-').map(Number);
    const date = new Intl.DateTimeFormat(locale, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(Date.UTC(y, m - 1, d));
    return `${date}, ${TEXT[language].allDay}`;
  }
  const at = Date.parse(`${r.utc_start_date.replace(' ', 'T')}Z`);
  return new Intl.DateTimeFormat(locale, { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone }).format(at);
}

/** What one message shows: its title, its line, and the event a click opens (none for a summary). */
export function notificationFor(m: ReminderMessage, language: Language, timeZone?: string): NotificationOptions & { eventId?: number } {
  const text = TEXT[language];
  if (m.type === 'due') {
    return { title: plain(m.reminder.title), body: whenText(m.reminder, language, timeZone), silent: m.reminder.action !== 'audio', eventId: m.reminder.event_id };
  }
  // The newest few by name, the rest as a count: never one notification per missed reminder.
  const named = m.reminders.slice(-3).reverse();
  const list = named.map((r) => text.at(plain(r.title), whenText(r, language, timeZone)));
  const rest = m.count - named.length;
  return { title: text.missed, body: rest > 0 ? `${list.join('; ')}; ${text.more(rest)}` : list.join('; '), silent: true };
}

export interface ReminderNotifierOptions {
  Notification: NotificationApi;
  /** The server's reminders: `service.onMessage`. */
  subscribe(listener: (m: ReminderMessage) => void): () => void;
  /** Brings the window up (creating it again when it was closed to the tray). */
  showWindow(): void;
  /** Opens the event's details card in the window. */
  openEvent(id: number): void;
  language(): Language;
  log(line: string): void;
}

export function createReminderNotifier(opts: ReminderNotifierOptions) {
  const held = new Set<NotificationLike>();
  const supported = (() => {
    try {
      return opts.Notification.isSupported();
    } catch {
      return false;
    }
  })();
  if (!supported) opts.log('native notifications are not supported here; reminders show in the window only');

  function show(m: ReminderMessage): void {
    if (!supported) return;
    const { eventId, ...options } = notificationFor(m, opts.language());
    const n = new opts.Notification(options);
    held.add(n);
    n.on('click', () => {
      held.delete(n);
      opts.showWindow();
      if (eventId !== undefined) opts.openEvent(eventId);
    });
    n.on('close', () => held.delete(n));
    n.on('failed', () => {
      held.delete(n);
      opts.log(`a reminder notification could not be shown: ${options.title}`);
    });
    n.show();
  }

  const unsubscribe = opts.subscribe(show);
  return {
    /** Notifications shown and not yet clicked or closed. */
    get open(): number {
      return held.size;
    },
    stop(): void {
      unsubscribe();
      for (const n of held) n.close();
      held.clear();
    },
  };
}
