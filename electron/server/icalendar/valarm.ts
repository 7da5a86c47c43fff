/**
 * VALARM ↔ reminders (issue 16). Read: ACTION (DISPLAY, AUDIO, EMAIL), TRIGGER relative (with
 * RELATED=END) or absolute (VALUE=DATE-TIME), REPEAT with DURATION, DESCRIPTION, SUMMARY,
 * ATTENDEE; the alarm's other properties (Apple's UID, X-WR-ALARMUID, ATTACH, ACKNOWLEDGED,
 * X-APPLE-DEFAULT-ALARM...) are kept as their lines and written back unchanged. Written the way
 * Google, Thunderbird and Apple write theirs: ACTION, TRIGGER, then the rest.
 */
import ICAL from 'ical.js';
import { normalizeReminder, type Reminder } from '../../../shared/reminders';
import type { StoredReminder } from '../store/reminders';
import { escapeText, foldLine } from './text';

type IcalComponent = InstanceType<typeof ICAL.Component>;

const CRLF = '\r\n';
const line = (name: string, value: string) => foldLine(`${name}:${value}`) + CRLF;
/** Properties the reminder itself says; any other is kept as written. */
const MODELLED = new Set(['action', 'trigger', 'repeat', 'duration', 'description', 'summary', 'attendee']);
/** Apple's "no alarm" placeholder and other programs' ancient absolute times never ring. */
const ACTIONS: Record<string, Reminder['action']> = { DISPLAY: 'display', AUDIO: 'audio', EMAIL: 'email' };

/**
 * The VEVENT's VALARMs as reminders; `warn` hears of one that cannot be read (it is left out, the
 * event is still imported). PROCEDURE (deprecated) and unknown actions are left out too.
 */
export function alarmsOf(c: IcalComponent, warn: (message: string) => void): StoredReminder[] {
  const out: StoredReminder[] = [];
  for (const alarm of c.getAllSubcomponents('valarm')) {
    const action = ACTIONS[String(alarm.getFirstPropertyValue('action') ?? '').toUpperCase()];
    const trigger = alarm.getFirstProperty('trigger');
    if (!action || !trigger) {
      warn('a reminder (VALARM) without a known ACTION or a TRIGGER was left out');
      continue;
    }
    const raw: Record<string, unknown> = { action };
    const value = trigger.getFirstValue() as unknown;
    if (value instanceof ICAL.Time) raw.at = `${value.convertToZone(ICAL.Timezone.utcTimezone).toString().slice(0, 19)}Z`;
    else if (value instanceof ICAL.Duration) {
      raw.trigger = value.toString();
      if (String(trigger.getParameter('related') ?? '').toUpperCase() === 'END') raw.related = 'end';
    } else {
      warn('a reminder (VALARM) with a TRIGGER that is neither a duration nor a time was left out');
      continue;
    }
    const repeat = alarm.getFirstPropertyValue('repeat');
    const every = alarm.getFirstPropertyValue('duration');
    if (repeat !== null && every instanceof ICAL.Duration) {
      raw.repeat = Number(repeat);
      raw.repeat_every = every.toString();
    }
    for (const key of ['description', 'summary'] as const) {
      const text = alarm.getFirstPropertyValue(key);
      if (typeof text === 'string' && text !== '') raw[key] = text;
    }
    const attendees = alarm.getAllProperties('attendee').map((p) => String(p.getFirstValue()));
    if (attendees.length) raw.attendees = attendees;
    const reminder = normalizeReminder(raw);
    if (typeof reminder === 'string') {
      warn(`a reminder (VALARM) was left out: its TRIGGER "${raw.trigger ?? raw.at}", REPEAT or ATTENDEE cannot be used`);
      continue;
    }
    const kept = alarm
      .getAllProperties()
      .filter((p) => !MODELLED.has(p.name))
      .map((p) => p.toICALString());
    out.push(kept.length ? { ...reminder, ical: kept.join(CRLF) } : reminder);
  }
  return out;
}

const compactUtc = (at: string) => at.replace(/[-:]/g, '').replace(/\.\d+/, '');

/** A reminder as a VALARM block (folded lines). */
export function valarmText(r: StoredReminder): string {
  let out = `BEGIN:VALARM${CRLF}ACTION:${r.action.toUpperCase()}${CRLF}`;
  if (r.at) out += `TRIGGER;VALUE=DATE-TIME:${compactUtc(r.at)}${CRLF}`;
  else out += `TRIGGER${r.related === 'end' ? ';RELATED=END' : ''}:${r.trigger}${CRLF}`;
  if (r.repeat) out += `REPEAT:${r.repeat}${CRLF}DURATION:${r.repeat_every}${CRLF}`;
  // RFC 5545: DISPLAY and EMAIL need a DESCRIPTION, EMAIL a SUMMARY and an ATTENDEE.
  if (r.description !== undefined || r.action !== 'audio') out += line('DESCRIPTION', escapeText(r.description ?? 'Reminder'));
  if (r.summary !== undefined || r.action === 'email') out += line('SUMMARY', escapeText(r.summary ?? 'Reminder'));
  for (const a of r.attendees ?? []) out += line('ATTENDEE', `mailto:${a}`);
  if (r.ical) for (const kept of r.ical.split(CRLF)) out += foldLine(kept) + CRLF;
  return `${out}END:VALARM${CRLF}`;
}
