/**
 * The sync core's outbox rules, for every transport. An outbox row is state, not a log: one row
 * per record changed here since it was last sent, written by triggers in the same transaction as
 * the change (dav_outbox for events of any synced calendar, site_outbox for a site's venues,
 * organizers and terms); `rev` grows with each change, so a row is only done when the revision
 * sent is still the latest (markSent ... AND rev = ?). What is sent is the record as it is when
 * sent. A refusal of one record waits (RETRY_REFUSED_MS) and is told in words; a failure of the
 * peer (network, 401, 5xx, 429) stops the round and keeps everything for the next.
 */

/** How long a record the peer refused waits before it is tried again. */
export const RETRY_REFUSED_MS = 3600_000;

export const retryLater = (ms = RETRY_REFUSED_MS) => new Date(Date.now() + ms).toISOString();

/** Lets the server answer requests waiting behind a step of a round. */
export const yieldToRequests = () => new Promise<void>((done) => setImmediate(done));

/**
 * Sends the rows `due` gives, in batches, each row at most once per round (a row changed again
 * while it was sent stays due: it goes next round), with the event loop let go between batches.
 * Returns how many rows were tried.
 */
export async function drainOutbox<R>(o: {
  due: (limit: number) => R[];
  key: (row: R) => string;
  send: (row: R) => Promise<void>;
  order?: (rows: R[]) => R[];
  batch: number;
  limit: number;
}): Promise<number> {
  const tried = new Set<string>();
  while (tried.size < o.limit) {
    const rows = o.due(o.batch + tried.size).filter((r) => !tried.has(o.key(r)));
    if (rows.length === 0) break;
    for (const row of (o.order ?? ((r) => r))(rows.slice(0, o.batch))) {
      tried.add(o.key(row));
      await o.send(row);
    }
    await yieldToRequests();
  }
  return tried.size;
}
