/**
 * Deletions a listing would make that are held for the user (issue 25), as Joplin's sync holds
 * them ("fail-safe"): when a listing says most of a calendar is gone at once, the likelier story is
 * a server emptied by mistake, a wrong account or a broken answer that still parses, not a user who
 * deleted nearly everything elsewhere. Nothing is deleted here until the user confirms; refusing
 * keeps the events and sends them back to the server.
 */
import type { Store } from '../store';
import type { CalendarRow } from '../store/caldav-accounts';

/** A calendar of at most this many events has its deletions applied whatever their share. */
const HOLD_MIN_EVENTS = 5;
/** Deleting more than this share of a calendar at once is held. */
const HOLD_SHARE = 0.9;

export type HoldDecision = 'allow' | 'refuse' | null;

export interface HeldDeletes {
  count: number;
  total: number;
  decision: HoldDecision;
}

export function heldDeletes(calendar: Pick<CalendarRow, 'held_deletes'>): HeldDeletes | null {
  if (!calendar.held_deletes) return null;
  try {
    const h = JSON.parse(calendar.held_deletes) as HeldDeletes;
    return typeof h.count === 'number' && typeof h.total === 'number' ? { count: h.count, total: h.total, decision: h.decision === 'allow' || h.decision === 'refuse' ? h.decision : null } : null;
  } catch {
    return null;
  }
}

/** Whether deleting `count` of `total` known resources at once is held for the user. */
export function mustHold(count: number, total: number): boolean {
  return total > HOLD_MIN_EVENTS && count > HOLD_SHARE * total;
}

/** Stores the held deletions (or none). Call in a write transaction. */
export function saveHeld(store: Store, calendarId: number, held: HeldDeletes | null): void {
  store.davSync.setHeldDeletes(calendarId, held ? JSON.stringify(held) : null);
}

/** The user's answer: false when nothing is held for that calendar. Call in a write transaction. */
export function decideHeld(store: Store, calendar: CalendarRow, allow: boolean): boolean {
  const held = heldDeletes(calendar);
  if (!held) return false;
  saveHeld(store, calendar.id, { ...held, decision: allow ? 'allow' : 'refuse' });
  return true;
}
