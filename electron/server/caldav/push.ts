/**
 * Sending what changed here (the outbox) to a calendar, never overwriting a server change blindly:
 * a new resource goes with `If-None-Match: *`, a change and a delete with `If-Match` the ETag the
 * local edit was based on. Success is 200/201/204 only (Xandikos says 207 for a refused PUT).
 *
 * - 412 (someone changed it since): the server's copy is fetched; if it says what ours says (our
 *   own earlier send, answered but not recorded before a crash) the change is done; if each side
 *   changed other fields, the two are merged (merge.ts) and the merge is sent; otherwise the
 *   server's version wins the event and ours is kept as a conflict copy.
 * - 404 on a change: deleted there meanwhile: ours is created again (a change is not lost).
 * - network, 5xx, 429: the round stops; the outbox keeps everything for the next one.
 * - another refusal (400, 403, 409, 415…): that change waits an hour, told in words; local data kept.
 *
 * A new resource's name is recorded before the first send, so a send repeated after kill -9
 * goes to the same name (and meets its own copy: 412, same content, done) — never a duplicate.
 */
import { createHash } from 'node:crypto';
import type { OutboxRow } from '../store/dav-sync';
import { applyItems, applyResource, localResource, sameMapped, withUnknownOf } from './resource';
import { mergeThreeWay } from './merge';
import { decideBothChanged } from '../sync/merge';
import { HttpStatusError, type RoundContext } from './sync';
import { yieldToRequests } from '../sync/outbox';
import { storedError } from './errors';

/** Changes sent per step of a round (each a request or three). */
export const PUSH_BATCH = 50;
/** Changes sent per round at most: the rest go in the next round. */
export const PUSH_ROUND_LIMIT = 2000;
const RETRY_REFUSED_MS = 3600_000;

const OK = new Set([200, 201, 204]);

/** Sends the calendar's outbox. Returns whether anything was sent (the pull then cannot be skipped). */
export async function pushCalendar(cx: RoundContext): Promise<boolean> {
  const { store, calendar } = cx;
  if (calendar.read_only) {
    const due = store.davSync.due(calendar.id, new Date().toISOString(), PUSH_ROUND_LIMIT);
    if (due.length) store.write(() => due.forEach((r) => store.davSync.markFailed(r, storedError({ key: 'sync_push_read_only' }), farFuture())));
    return false;
  }
  let sent = 0;
  while (sent < PUSH_ROUND_LIMIT) {
    const batch = store.davSync.due(calendar.id, new Date().toISOString(), PUSH_BATCH);
    if (batch.length === 0) break;
    for (const row of batch) {
      await pushOne(cx, row);
      sent++;
    }
    await yieldToRequests();
  }
  return sent > 0;
}

/** A resource's name on the server: its UID when that is a safe file name, else a hash of it. */
export function resourceName(uid: string): string {
  return /^[A-Za-z0-9_.-]{1,200}$/.test(uid) ? `${uid}.ics` : `${createHash('sha256').update(uid).digest('hex').slice(0, 40)}.ics`;
}

async function pushOne(cx: RoundContext, row: OutboxRow): Promise<void> {
  const { store, calendar, report } = cx;
  const object = store.davSync.object(calendar.id, row.uid);
  const local = localResource(store, calendar.id, row.uid, cx.url);

  if (!local) {
    // Gone here: deleted on the server too (if it ever got there).
    if (object) {
      const res = await request(cx, object.href, 'DELETE', object.etag ? { 'If-Match': object.etag } : {});
      if (res.status === 412) {
        // Changed there since: the server's version wins, so the event comes back here.
        await takeServerCopy(cx, row, object.href, undefined);
        return;
      }
      if (!OK.has(res.status) && res.status !== 404) return refused(cx, row, res.status, 'delete');
      report.sent.deleted++;
    }
    store.write(() => {
      store.davSync.forgetObject(calendar.id, row.uid);
      store.davSync.markSent(row);
    });
    return;
  }

  const body = withUnknownOf(local.text, object?.base_ical);
  let href = object?.href;
  if (!href) {
    href = new URL(resourceName(row.uid), calendar.url!).href;
    const chosen = href;
    store.write(() => store.davSync.saveObject({ calendarId: calendar.id, uid: row.uid, href: chosen, etag: null, base: null }));
  }
  let creating = !object?.etag;
  let res = await request(cx, href, 'PUT', creating ? { 'If-None-Match': '*' } : { 'If-Match': object!.etag! }, body);
  if (res.status === 404 && !creating) {
    // Deleted there while changed here: the change is not lost, the event is created again.
    creating = true;
    res = await request(cx, href, 'PUT', { 'If-None-Match': '*' }, body);
  }
  if (res.status === 412) {
    await takeServerCopy(cx, row, href, local);
    return;
  }
  if (!OK.has(res.status)) return refused(cx, row, res.status, creating ? 'new event' : 'change');
  // What the server stores is what later changes are based on: fetched back, since servers
  // rewrite what they are sent (and some answer no ETag).
  const stored = await getResource(cx, href);
  const final = href;
  store.write(() => {
    store.davSync.saveObject({ calendarId: calendar.id, uid: row.uid, href: final, etag: stored.status === 200 ? stored.etag : res.etag, base: stored.status === 200 ? stored.text : body });
    store.davSync.markSent(row);
  });
  report.sent[creating ? 'created' : 'updated']++;
}

/**
 * The server has another version than the one our change was based on. Same content as ours:
 * done. Else the server's wins the event and ours (when there is one) becomes a conflict copy.
 */
async function takeServerCopy(cx: RoundContext, row: OutboxRow, href: string, local: { text: string; title: string } | undefined): Promise<void> {
  const { store, calendar, report } = cx;
  const server = await getResource(cx, href);
  if (server.status === 404) {
    // It went between the two requests: the next round sends ours again, as new.
    store.write(() => store.davSync.forgetObject(calendar.id, row.uid));
    return;
  }
  if (server.status !== 200) throw new HttpStatusError(server.status, `GET ${href}`);
  const base = store.davSync.object(calendar.id, row.uid)?.base_ical;
  store.write(() => {
    // Different fields changed on each side: both changes kept, and the merge goes out next.
    const decision = decideBothChanged(local, {
      same: (l) => sameMapped(l.text, server.text, cx.write),
      merge: (l) => (base ? mergeThreeWay(base, l.text, server.text, cx.write) : null),
    });
    if (decision.outcome === 'merged') {
      store.davSync.asServer(() => applyItems(store, calendar.id, [decision.merged], cx.write));
      report.merged++;
    } else if (decision.outcome !== 'same') {
      if (decision.outcome === 'conflict') {
        store.davSync.keepConflict(calendar.id, row.uid, local!.title, local!.text, new Date().toISOString());
        report.conflicts++;
      }
      store.davSync.asServer(() => applyResource(store, calendar.id, server.text, cx.write));
      report.received.changed++;
    }
    store.davSync.saveObject({ calendarId: calendar.id, uid: row.uid, href, etag: server.etag, base: server.text });
    if (decision.outcome !== 'merged') store.davSync.dropPending(calendar.id, row.uid);
  });
}

function refused(cx: RoundContext, row: OutboxRow, status: number, what: 'delete' | 'new event' | 'change'): void {
  if (status === 401 || status >= 500 || status === 429) throw new HttpStatusError(status, what);
  const title = cx.store.davSync.anchor(cx.calendar.id, row.uid)?.title ?? row.uid;
  // Kept by message key, so GET /sync words it in the reader's language.
  const key = status === 403 ? 'sync_push_forbidden' : status === 409 || status === 207 ? 'sync_push_uid_taken' : 'sync_push_refused';
  cx.store.write(() => cx.store.davSync.markFailed(row, storedError({ key, vars: { title, status } }), new Date(Date.now() + RETRY_REFUSED_MS).toISOString()));
}

const farFuture = () => new Date(Date.now() + 365 * 86400_000).toISOString();

export interface Answer {
  status: number;
  etag: string | null;
  text: string;
}

/** One request of the round through the account's transport (auth, time and size limits). */
export async function request(cx: RoundContext, href: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const res = await cx.transport.fetch(href, {
    method,
    headers: body !== undefined ? { 'Content-Type': 'text/calendar; charset=utf-8', ...headers } : headers,
    body,
  });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get('etag'), text };
}

export const getResource = (cx: RoundContext, href: string) => request(cx, href, 'GET', { Accept: 'text/calendar' });
