/**
 * The rhythm of a peer's sync rounds, the same for CalDAV accounts and websites: one round per
 * peer at a time (asking while one runs gets that round), each round's requests ending with it
 * (removing the peer or quitting never waits on the peer), a peer that could not be reached
 * waiting with backoff (1 min doubling to 2 h, or the peer's Retry-After when longer) before the
 * background tries it again, and a refused login waiting for the user (a new password or "Sync
 * now", which clears any wait). The timers that start background rounds are the service's
 * (caldav/service.ts); what a round does is the peer kind's.
 */

/** What the rhythm reads of a round's report. */
export interface RoundOutcome {
  ok: boolean;
  /** What went wrong, in words. */
  error?: string;
  /** Worth trying again later by itself (network, server trouble); false: the user must act. */
  transient?: boolean;
  /** How long the peer asked to be left alone (Retry-After), when it did. */
  retryAfterMs?: number;
}

/** A round that cannot start (no such peer, no password): its report, and whether the peer now waits for the user. */
export interface Unstarted<R> {
  report: R;
  waitForUser: boolean;
}

export interface RoundKind<P, R extends RoundOutcome> {
  /** The peer and what its round needs, or the report of a round that cannot start. */
  prepare(id: number): { peer: P } | Unstarted<R>;
  /** One round, its requests ended by `signal`. */
  run(peer: P, signal: AbortSignal): Promise<R>;
  /** The report of a round that threw (a bug, the database failing), recorded as the kind records it. */
  failed(peer: P, err: Error): R;
  /** How the log names the peer's round: `sync of "Work"`. */
  describe(peer: P): string;
}

export const BACKOFF_MIN_MS = 60_000;
export const BACKOFF_MAX_MS = 2 * 3600_000;

export type Finished<R> = R & { finished: string };

export function createRounds<P, R extends RoundOutcome>(kind: RoundKind<P, R>, log: (level: 'warn' | 'error', line: string) => void) {
  const running = new Map<number, Promise<R>>();
  const aborts = new Map<number, AbortController>();
  const backoff = new Map<number, { failures: number; until: number }>();
  const last = new Map<number, Finished<R>>();

  /** After a round: cleared when it went well, doubled when the peer was unreachable, endless when the user must act. */
  function pace(id: number, report: R): void {
    if (report.ok) backoff.delete(id);
    else if (report.transient) {
      const failures = (backoff.get(id)?.failures ?? 0) + 1;
      const wait = Math.max(report.retryAfterMs ?? 0, Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (failures - 1)));
      backoff.set(id, { failures, until: Date.now() + wait });
    } else if (report.error) backoff.set(id, { failures: 0, until: Infinity });
  }

  async function attempt(id: number, signal: AbortSignal): Promise<R> {
    const prepared = kind.prepare(id);
    if (!('peer' in prepared)) {
      if (prepared.waitForUser) backoff.set(id, { failures: 0, until: Infinity });
      return prepared.report;
    }
    const { peer } = prepared;
    try {
      const report = await kind.run(peer, signal);
      pace(id, report);
      if (report.error) log('warn', `${kind.describe(peer)}: ${report.error}`);
      return report;
    } catch (err) {
      log('error', `${kind.describe(peer)} failed: ${(err as Error).message}`);
      return kind.failed(peer, err as Error);
    }
  }

  function run(id: number): Promise<R> {
    const current = running.get(id);
    if (current) return current;
    const abort = new AbortController();
    aborts.set(id, abort);
    const round = (async () => {
      try {
        const report = await attempt(id, abort.signal);
        last.set(id, { ...report, finished: new Date().toISOString() });
        return report;
      } finally {
        running.delete(id);
        aborts.delete(id);
      }
    })();
    running.set(id, round);
    return round;
  }

  return {
    run,
    /** A round of each now, whatever its wait; resolves with the reports. */
    now(ids: number[]): Promise<R[]> {
      for (const id of ids) backoff.delete(id);
      return Promise.all(ids.map(run));
    },
    /** The background's turn: a round of each not waiting. */
    due(ids: number[]): void {
      const at = Date.now();
      for (const id of ids) if ((backoff.get(id)?.until ?? 0) <= at) void run(id);
    },
    running: (id: number) => running.has(id),
    /** When the background tries the peer next (ISO), null when it is not waiting or waits for the user. */
    nextTry(id: number): string | null {
      const b = backoff.get(id);
      return b && Number.isFinite(b.until) ? new Date(b.until).toISOString() : null;
    },
    lastRound: (id: number): Finished<R> | null => last.get(id) ?? null,
    /** Resolves once the peer's round under way (if any) is over. */
    async settled(id: number): Promise<void> {
      await running.get(id)?.catch(() => undefined);
    },
    /** Ends the peer's round under way (its requests aborted) and resolves once it is over. */
    async cancel(id: number): Promise<void> {
      aborts.get(id)?.abort();
      await running.get(id)?.catch(() => undefined);
    },
    /** Ends every round under way; resolves once all are over. */
    async close(): Promise<void> {
      for (const abort of aborts.values()) abort.abort();
      await Promise.allSettled([...running.values()]);
    },
  };
}

