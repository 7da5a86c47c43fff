/**
 * Reminders (issue 16): an event's VALARMs, how occurrences of a series inherit them, and their
 * schedule (`reminder_due`) with what the user did with each firing (`reminder_state`).
 *
 * A series' reminders sit on its first event; an occurrence with the `reminders` own-field bit has
 * rows of its own. The schedule holds the firings in [now − 1 day, now + 7 days]: rewritten for an
 * event in the transaction that writes it, and refilled whole by `refill` (start-up and a job).
 */
import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import type { DB } from './db';
import { OWN } from './series-fields';
import { zoneFor } from '../../../shared/dates/zones';
import { parseDuration, reminderKey, durationSeconds, type Reminder, type Duration } from '../../../shared/reminders';

const DAY_MS = 86400_000;
/** The schedule's window around now. */
export const WINDOW_BEFORE_MS = DAY_MS;
export const WINDOW_AFTER_MS = 7 * DAY_MS;

interface ReminderRow {
  id: number;
  event_id: number;
  layer: number;
  position: number;
  action: Reminder['action'];
  trigger: string | null;
  related: 'start' | 'end';
  at_utc: string | null;
  offset_s: number | null;
  repeat_n: number;
  repeat_every: string | null;
  description: string | null;
  summary: string | null;
  attendees: string | null;
  ical: string | null;
  alarm_key: string;
}

/** The columns of an event the schedule needs. */
interface TimedRow {
  id: number;
  parent_id: number | null;
  recurrence_id: string | null;
  own_fields: number;
  status: string;
  start_local: string;
  end_local: string;
  timezone: string;
  all_day: number;
  ics_uid: string | null;
}

/** A reminder as stored, with what an import kept of its VALARM. */
export interface StoredReminder extends Reminder {
  /** The VALARM text as imported (its other properties), for the export. */
  ical?: string;
}

export interface DueReminder {
  key: string;
  event_id: number;
  action: Reminder['action'];
  fire_utc: string;
  pushed: number;
  title: string;
  start_local: string;
  start_utc: string;
  end_local: string;
  timezone: string;
  all_day: number;
  recurrence_id: string | null;
  parent_id: number | null;
}

/** Imported events settled with two lookups each; more are settled in one pass over the schedule. */
const SETTLE_ONE_BY_ONE = 1000;

interface PastFiring {
  key: string;
  event_id: number;
  parent_id: number | null;
}

const toSql = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const fromSql = (utc: string) => Date.parse(`${utc.replace(' ', 'T')}Z`);

function toReminder(r: ReminderRow): StoredReminder {
  const out: StoredReminder = { action: r.action };
  if (r.trigger !== null) {
    out.trigger = r.trigger;
    if (r.related === 'end') out.related = 'end';
  } else out.at = `${r.at_utc!.replace(' ', 'T')}Z`;
  if (r.repeat_n > 0) {
    out.repeat = r.repeat_n;
    out.repeat_every = r.repeat_every!;
  }
  if (r.description !== null) out.description = r.description;
  if (r.summary !== null) out.summary = r.summary;
  if (r.attendees !== null) out.attendees = JSON.parse(r.attendees) as string[];
  if (r.ical !== null) out.ical = r.ical;
  return out;
}

/**
 * When a reminder fires for an event, as UTC milliseconds, each repeat included (`n` 0 first).
 * Relative triggers add their nominal days on the wall clock of the event's zone and their hours,
 * minutes and seconds as elapsed time (RFC 5545 §3.3.6), so "1 day before" stays at the same wall
 * time across a DST change. An all-day event's dates are floating: the whole trigger counts on the
 * wall clock from its local midnight ("-PT15H" is 09:00 the day before, whatever the DST).
 */
export function fireTimes(r: Reminder, e: Pick<TimedRow, 'start_local' | 'end_local' | 'timezone' | 'all_day'>): number[] {
  const zone = zoneFor(e.timezone);
  let first: number;
  if (r.at) first = Date.parse(r.at);
  else {
    const d = parseDuration(r.trigger!)!;
    let wall = r.related === 'end' ? e.end_local : e.start_local;
    // An all-day event ends at the next midnight (its stored end is 23:59:59 of its last day).
    if (e.all_day && r.related === 'end') wall = DateTime.fromSQL(wall.slice(0, 10), { zone: 'UTC' }).plus({ days: 1 }).toFormat('yyyy-LL-dd HH:mm:ss');
    if (e.all_day) {
      const local = DateTime.fromSQL(wall, { zone: 'UTC' }).plus({ days: d.days, seconds: d.seconds });
      first = DateTime.fromObject(local.toObject(), { zone }).toMillis();
    } else {
      first = DateTime.fromSQL(wall, { zone }).plus({ days: d.days }).plus({ seconds: d.seconds }).toMillis();
    }
  }
  const out = [first];
  if (r.repeat && r.repeat_every) {
    const every = parseDuration(r.repeat_every)!;
    for (let n = 1; n <= r.repeat; n++) out.push(addDuration(first, every, n, zone));
  }
  return out;
}

function addDuration(ms: number, d: Duration, times: number, zone: ReturnType<typeof zoneFor>): number {
  return DateTime.fromMillis(ms, { zone }).plus({ days: d.days * times }).plus({ seconds: d.seconds * times }).toMillis();
}

export function createReminderStore(db: DB) {
  const byEvent = db.prepare<[number, number], ReminderRow>('SELECT * FROM event_reminders WHERE event_id = ? AND layer = ? ORDER BY position');
  const remove = db.prepare<[number, number]>('DELETE FROM event_reminders WHERE event_id = ? AND layer = ?');
  const insert = db.prepare(
    `INSERT INTO event_reminders (event_id, layer, position, action, trigger, related, at_utc, offset_s, repeat_n, repeat_every, description, summary, attendees, ical, alarm_key)
     VALUES (@event_id, @layer, @position, @action, @trigger, @related, @at_utc, @offset_s, @repeat_n, @repeat_every, @description, @summary, @attendees, @ical, @alarm_key)`,
  );
  const copyLayer = db.prepare<[number, number, number]>(
    `INSERT INTO event_reminders (event_id, layer, position, action, trigger, related, at_utc, offset_s, repeat_n, repeat_every, description, summary, attendees, ical, alarm_key)
     SELECT event_id, ?, position, action, trigger, related, at_utc, offset_s, repeat_n, repeat_every, description, summary, attendees, ical, alarm_key
     FROM event_reminders WHERE event_id = ? AND layer = ?`,
  );
  const timed = db.prepare<[number], TimedRow>(
    'SELECT id, parent_id, recurrence_id, own_fields, status, start_local, end_local, timezone, all_day, ics_uid FROM events WHERE id = ?',
  );
  const ownBits = db.prepare<[number], { own_fields: number; ics_uid: string | null }>('SELECT own_fields, ics_uid FROM events WHERE id = ?');
  const setOwnBit = db.prepare<[number, number]>('UPDATE events SET own_fields = own_fields | ? WHERE id = ?');
  const isAnchor = db.prepare<[number], { id: number }>('SELECT id FROM event_series WHERE id = ?');
  // The occurrences of a series whose start falls in a range, by the (parent_id, start_utc) index.
  const membersIn = db.prepare<[number, string, string], { id: number }>(
    "SELECT id FROM events WHERE parent_id = ? AND start_utc BETWEEN ? AND ? AND status NOT IN ('trash', 'inherit')",
  );
  // Two queries: SQLite answers a lone min() or max() from the index, both at once by a full scan.
  const lowest = db.prepare<[], number | null>('SELECT min(offset_s) FROM event_reminders').pluck();
  const highest = db.prepare<[], number | null>('SELECT max(offset_s) FROM event_reminders').pluck();
  // The events whose own reminders may fire in the window: a series' first event (its occurrences
  // are then looked up by start), an event whose dates are near enough, an absolute time within it.
  const sources = db.prepare<[string, string, string, string], { event_id: number }>(
    `SELECT DISTINCT r.event_id FROM event_reminders r JOIN events e ON e.id = r.event_id
     WHERE r.event_id IN (SELECT id FROM event_series) OR (e.start_utc <= ? AND e.end_utc >= ?) OR r.at_utc BETWEEN ? AND ?`,
  );
  const clearDue = db.prepare<[number]>('DELETE FROM reminder_due WHERE event_id = ?');
  const putDue = db.prepare<[string, string, number, string, number]>(
    'INSERT INTO reminder_due (key, fire_utc, event_id, action, pushed) VALUES (?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET fire_utc = excluded.fire_utc, event_id = excluded.event_id, action = excluded.action, pushed = excluded.pushed',
  );
  const stateOf = db.prepare<[string], { state: string; until_utc: string | null }>('SELECT state, until_utc FROM reminder_state WHERE key = ?');
  const setState = db.prepare<[string, string, string | null, string]>(
    'INSERT INTO reminder_state (key, state, until_utc, updated_utc) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET state = excluded.state, until_utc = excluded.until_utc, updated_utc = excluded.updated_utc',
  );
  const dueJoin = `SELECT d.key, d.event_id, d.action, d.fire_utc, d.pushed, e.title, e.start_local, e.start_utc, e.end_local, e.timezone, e.all_day, e.recurrence_id, e.parent_id
    FROM reminder_due d JOIN events e ON e.id = d.event_id`;
  const dueBy = db.prepare<[string], DueReminder>(`${dueJoin} WHERE d.fire_utc <= ? ORDER BY d.fire_utc, d.key LIMIT 200`);
  const dueKey = db.prepare<[string], DueReminder>(`${dueJoin} WHERE d.key = ?`);
  const unpushed = db.prepare<[string, number], DueReminder>(`${dueJoin} WHERE d.pushed = 0 AND d.fire_utc <= ? ORDER BY d.fire_utc, d.key LIMIT ?`);
  const markPushed = db.prepare<[string]>('UPDATE reminder_due SET pushed = 1 WHERE key = ?');
  const nextUnpushed = db.prepare<[], { fire_utc: string }>('SELECT fire_utc FROM reminder_due WHERE pushed = 0 ORDER BY fire_utc LIMIT 1');
  const dropDue = db.prepare<[string]>('DELETE FROM reminder_due WHERE key = ?');
  const pastOf = db
    .prepare<[number, number, string], string>(
      'SELECT key FROM reminder_due WHERE pushed = 0 AND (event_id = ? OR event_id IN (SELECT id FROM events WHERE parent_id = ?)) AND fire_utc <= ?',
    )
    .pluck();
  const pastAll = db.prepare<[string], PastFiring>(
    'SELECT d.key, d.event_id, e.parent_id FROM reminder_due d LEFT JOIN events e ON e.id = d.event_id WHERE d.pushed = 0 AND d.fire_utc <= ?',
  );
  const dropOld = db.prepare<[string]>('DELETE FROM reminder_due WHERE fire_utc < ?');

  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((fn) => fn());

  function read(eventId: number, layer: number): StoredReminder[] {
    return byEvent.all(eventId, layer).map(toReminder);
  }

  function write(eventId: number, layer: number, list: StoredReminder[]): void {
    remove.run(eventId, layer);
    const seen = new Set<string>();
    let position = 0;
    for (const r of list) {
      const alarmKey = reminderKey(r);
      // The same reminder twice would notify twice at once: kept once.
      if (seen.has(alarmKey)) continue;
      seen.add(alarmKey);
      const d = r.trigger ? parseDuration(r.trigger) : undefined;
      insert.run({
        event_id: eventId,
        layer,
        position: position++,
        action: r.action,
        trigger: r.trigger ?? null,
        related: r.related ?? 'start',
        at_utc: r.at ? r.at.slice(0, 19).replace('T', ' ') : null,
        offset_s: d ? durationSeconds(d) : null,
        repeat_n: r.repeat ?? 0,
        repeat_every: r.repeat_every ?? null,
        description: r.description ?? null,
        summary: r.summary ?? null,
        attendees: r.attendees ? JSON.stringify(r.attendees) : null,
        ical: r.ical ?? null,
        alarm_key: alarmKey,
      });
    }
  }

  /** Where an event's reminders are read from: its own rows, or its series' (the first event's). */
  function sourceOf(e: Pick<TimedRow, 'id' | 'parent_id' | 'recurrence_id' | 'own_fields'>): { id: number; layer: number; inherited: boolean } {
    if (e.parent_id !== null && e.recurrence_id !== null && !(e.own_fields & OWN.reminders)) {
      const anchor = ownBits.get(e.parent_id);
      return { id: e.parent_id, layer: anchor && anchor.own_fields & OWN.reminders ? 1 : 0, inherited: true };
    }
    return { id: e.id, layer: 0, inherited: false };
  }

  function effective(e: Pick<TimedRow, 'id' | 'parent_id' | 'recurrence_id' | 'own_fields'>): StoredReminder[] {
    const s = sourceOf(e);
    const list = read(s.id, s.layer);
    // An absolute time is one moment: on a series it belongs to the event it was set on, not to
    // every occurrence (which would all ring at once).
    return s.inherited ? list.filter((r) => !r.at) : list;
  }

  /** The key of one firing: the same for the same occurrence and reminder whatever its row. */
  function firingKey(e: TimedRow, r: Reminder, n: number): string {
    const uidOwner = e.parent_id !== null && e.recurrence_id !== null ? e.parent_id : e.id;
    const uid = (uidOwner === e.id ? e.ics_uid : ownBits.get(uidOwner)?.ics_uid) ?? `almanac-${uidOwner}`;
    return createHash('sha1').update(`${uid}\n${e.recurrence_id ?? ''}\n${reminderKey(r)}\n${n}`).digest('base64url').slice(0, 22);
  }

  /** Rewrites an event's rows of the schedule from its reminders and the state of each firing. */
  function scheduleEvent(id: number, nowMs: number): void {
    clearDue.run(id);
    const e = timed.get(id);
    if (!e || e.status === 'trash' || e.status === 'inherit') return;
    const from = nowMs - WINDOW_BEFORE_MS;
    const to = nowMs + WINDOW_AFTER_MS;
    for (const r of effective(e)) {
      fireTimes(r, e).forEach((ms, n) => {
        const key = firingKey(e, r, n);
        const state = stateOf.get(key);
        let fire = ms;
        let pushed = 0;
        if (state?.state === 'dismissed') return;
        if (state?.state === 'snoozed') fire = fromSql(state.until_utc!);
        else if (state?.state === 'fired') {
          // Fired already: still due (until dismissed), unless the event moved it later since.
          if (ms <= fromSql(state.until_utc!)) {
            fire = fromSql(state.until_utc!);
            pushed = 1;
          }
        }
        if (fire < from || fire > to) return;
        putDue.run(key, toSql(fire), id, r.action, pushed);
      });
    }
  }

  /**
   * Where an event must start (by `to`) and end (from `from`) for a relative trigger to bring a
   * firing into the window: the triggers' reach, and two days more for the zone's offset, DST and
   * an end-related trigger on an event of a day or so.
   */
  function reach(nowMs: number): { from: string; to: string } {
    const lo = Math.min(0, lowest.get() ?? 0) * 1000;
    const hi = Math.max(0, highest.get() ?? 0) * 1000;
    const slack = 2 * DAY_MS;
    return { from: toSql(nowMs - WINDOW_BEFORE_MS - hi - slack), to: toSql(nowMs + WINDOW_AFTER_MS - lo + slack) };
  }

  /** The events whose firings may fall in the window: an event, or a series' occurrences. */
  function affected(id: number, nowMs: number, near?: { from: string; to: string }): number[] {
    const ids = [id];
    if (!isAnchor.get(id)) return ids;
    near ??= reach(nowMs);
    for (const m of membersIn.all(id, near.from, near.to)) ids.push(m.id);
    return ids;
  }

  return {
    /** The reminders an event has (its series' when it inherits them). */
    of(e: Pick<TimedRow, 'id' | 'parent_id' | 'recurrence_id' | 'own_fields'>): StoredReminder[] {
      return effective(e);
    },
    /** An event's own reminders (layer 0), as set on it. */
    own: (id: number) => read(id, 0),
    /**
     * Stores what a write set. `before` is the event as it was before the write and `scope` the
     * write's: an occurrence or a first event changed "this" one owns its reminders from then on
     * (the write set its bit); "all" changes the series' set. Call in the write's transaction,
     * after the series store applied it.
     */
    set(before: Pick<TimedRow, 'id' | 'parent_id' | 'recurrence_id' | 'own_fields'>, list: StoredReminder[], scope: 'this' | 'following' | 'all'): void {
      const seriesId = before.recurrence_id !== null ? (before.parent_id ?? before.id) : null;
      if (seriesId === null) return write(before.id, 0, list);
      const after = ownBits.get(before.id);
      const isFirst = before.id === seriesId;
      if (scope === 'this') {
        if (isFirst && !(before.own_fields & OWN.reminders)) {
          // The series' set moves to layer 1 so the other occurrences keep it.
          remove.run(seriesId, 1);
          copyLayer.run(1, seriesId, 0);
        }
        return write(before.id, 0, list);
      }
      // Split off: the occurrence is the new series' first event (or a single event) now.
      if (scope === 'following' && !isFirst && after) return write(before.id, 0, list);
      const anchor = ownBits.get(seriesId);
      write(seriesId, anchor && anchor.own_fields & OWN.reminders ? 1 : 0, list);
    },
    /**
     * Before an edit that takes an event out of its series (a split, or a series ended): the
     * series' reminders it has, to be given to the event that stays (the new series' first event,
     * or the one event left, which has no rows of its own otherwise). Asked on the first event,
     * that is its own set: a first event deleted for good leaves another occurrence as the event.
     * Returns undefined when nothing needs keeping.
     */
    beforeSplit(before: Pick<TimedRow, 'id' | 'parent_id' | 'recurrence_id' | 'own_fields'>): StoredReminder[] | undefined {
      if (before.own_fields & OWN.reminders) return undefined;
      if (before.parent_id !== null && before.recurrence_id === null) return undefined;
      return effective(before);
    },
    /** After the split: the new first event takes the set captured by `beforeSplit`. */
    afterSplit(id: number, inherited: StoredReminder[] | undefined): void {
      const e = ownBits.get(id);
      if (inherited && e && !(e.own_fields & OWN.reminders)) write(id, 0, inherited);
    },
    /**
     * An imported occurrence's own VALARMs (a VEVENT with RECURRENCE-ID): its own when they differ
     * from its series', so the series' later changes leave them alone.
     */
    importOwn(id: number, list: StoredReminder[]): void {
      const e = timed.get(id);
      if (!e) return;
      const same = (a: StoredReminder[], b: StoredReminder[]) => JSON.stringify(a.map(reminderKey)) === JSON.stringify(b.map(reminderKey));
      if (e.own_fields & OWN.reminders || e.parent_id === null || e.recurrence_id === null) return write(id, 0, list);
      if (same(effective(e), list)) return;
      write(id, 0, list);
      setOwnBit.run(OWN.reminders, id);
    },
    /** Rewrites the schedule of an event and, for a series' first event, of its occurrences. */
    reschedule(ids: Iterable<number>, now: Date): void {
      changed();
      const nowMs = now.getTime();
      const done = new Set<number>();
      for (const id of ids) {
        for (const one of affected(id, nowMs)) {
          if (done.has(one)) continue;
          done.add(one);
          scheduleEvent(one, nowMs);
        }
      }
    },
    /**
     * Rebuilds the whole schedule for the window around `now` (start-up and every few hours): the
     * window moves, and firings further than a week ahead come into it. Call in a transaction.
     */
    refill(now: Date): number {
      const plan = this.refillPlan(now);
      const done = new Set<number>();
      this.refillSome(plan, now, done);
      return done.size;
    },
    /**
     * A refill in steps, so a large calendar's does not hold the server: the firings that left the
     * window go, and the events to schedule again are returned, to pass to `refillSome` a batch at a
     * time (each in a transaction of its own; an event's rows are rewritten whole in one).
     */
    refillPlan(now: Date): number[] {
      const nowMs = now.getTime();
      dropOld.run(toSql(nowMs - WINDOW_BEFORE_MS));
      const near = reach(nowMs);
      return sources.all(near.to, near.from, toSql(nowMs - WINDOW_BEFORE_MS), toSql(nowMs + WINDOW_AFTER_MS)).map((r) => r.event_id);
    },
    /** Schedules these events of a plan (and a series' occurrences); `done` skips those seen already. */
    refillSome(ids: number[], now: Date, done: Set<number>): void {
      const nowMs = now.getTime();
      const near = reach(nowMs);
      for (const source of ids) {
        for (const id of affected(source, nowMs, near)) {
          if (done.has(id)) continue;
          done.add(id);
          scheduleEvent(id, nowMs);
        }
      }
    },
    /**
     * Imported events' firings that were due already when they came in (yesterday's meeting in a
     * calendar imported today): dismissed, not rung one by one by the next turn of the timer.
     */
    settleImported(ids: Iterable<number>, now: Date): void {
      const nowSql = toSql(now.getTime());
      const list = [...ids];
      // Two lookups per event cost a large import more than one pass over the schedule's past
      // firings not told yet (a 100,000-event import asked 200,000 questions answered "none").
      let keys: string[];
      if (list.length > SETTLE_ONE_BY_ONE) {
        const imported = new Set(list);
        // The firing's own event, or the series whose occurrence it is.
        keys = pastAll.all(nowSql).filter((r) => imported.has(r.event_id) || (r.parent_id !== null && imported.has(r.parent_id))).map((r) => r.key);
      } else keys = list.flatMap((id) => pastOf.all(id, id, nowSql));
      for (const key of keys) {
        setState.run(key, 'dismissed', null, nowSql);
        dropDue.run(key);
      }
    },
    /** Firings due at `now` (fired or not yet), oldest first: what a client shows. */
    due: (now: Date): DueReminder[] => dueBy.all(toSql(now.getTime())),
    get: (key: string): DueReminder | undefined => dueKey.get(key),
    /**
     * Takes the firings due by `now` that no client was told of yet and marks them fired, before
     * anyone is told (call in a transaction; push after it commits): at most once across a crash.
     */
    takeDue(now: Date, limit = 1000): DueReminder[] {
      const nowSql = toSql(now.getTime());
      const rows = unpushed.all(nowSql, limit);
      for (const r of rows) {
        markPushed.run(r.key);
        setState.run(r.key, 'fired', r.fire_utc, nowSql);
      }
      return rows;
    },
    /** When the next firing nobody was told of is due (UTC ms), if any. */
    nextFire(): number | undefined {
      const row = nextUnpushed.get();
      return row ? fromSql(row.fire_utc) : undefined;
    },
    snooze(key: string, untilMs: number, now: Date): void {
      const until = toSql(untilMs);
      setState.run(key, 'snoozed', until, toSql(now.getTime()));
      const row = dueKey.get(key)!;
      putDue.run(key, until, row.event_id, row.action, 0);
      changed();
    },
    /** Calls `fn` when the schedule may have a closer firing (the caller waits for the commit). */
    onChange(fn: () => void): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    dismiss(key: string, now: Date): void {
      setState.run(key, 'dismissed', null, toSql(now.getTime()));
      dropDue.run(key);
    },
  };
}

export type ReminderStore = ReturnType<typeof createReminderStore>;
