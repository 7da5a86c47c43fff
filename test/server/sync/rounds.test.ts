import { describe, expect, it } from 'vitest';
import { createRounds, BACKOFF_MIN_MS, type RoundOutcome } from '../../../electron/server/sync/rounds';

type Report = RoundOutcome & { id: number };

/** A peer kind whose rounds answer what the test queues. */
function peers(answers: Array<Report | Error | 'hang'>, opts: { missing?: Set<number> } = {}) {
  const runs: number[] = [];
  const logged: string[] = [];
  const rounds = createRounds<number, Report>(
    {
      prepare: (id) => (opts.missing?.has(id) ? { report: { id, ok: false, error: 'no password' }, waitForUser: true } : { peer: id }),
      run(id, signal) {
        runs.push(id);
        const next = answers.shift() ?? { id, ok: true };
        if (next === 'hang') return new Promise((_, fail) => signal.addEventListener('abort', () => fail(new Error('aborted'))));
        return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
      },
      failed: (id, err) => ({ id, ok: false, error: err.message }),
      describe: (id) => `sync of ${id}`,
    },
    (level, line) => logged.push(`${level} ${line}`),
  );
  return { rounds, runs, logged };
}

describe('the rhythm of sync rounds', () => {
  it('an unreachable peer waits with doubling backoff, or its Retry-After when longer; a good round clears it', async () => {
    const { rounds, runs } = peers([
      { id: 1, ok: false, transient: true, error: 'down' },
      { id: 1, ok: false, transient: true, error: 'down' },
      { id: 1, ok: false, transient: true, error: 'busy', retryAfterMs: 3 * 3600_000 },
      { id: 1, ok: true },
    ]);
    const t0 = Date.now();
    await rounds.run(1);
    const first = Date.parse(rounds.nextTry(1)!) - t0;
    expect(first).toBeGreaterThanOrEqual(BACKOFF_MIN_MS - 50);
    expect(first).toBeLessThan(BACKOFF_MIN_MS + 1000);
    rounds.due([1]); // waiting: no round
    expect(runs).toHaveLength(1);
    await rounds.run(1);
    expect(Date.parse(rounds.nextTry(1)!) - t0).toBeGreaterThanOrEqual(2 * BACKOFF_MIN_MS - 50);
    await rounds.run(1);
    expect(Date.parse(rounds.nextTry(1)!) - t0).toBeGreaterThanOrEqual(3 * 3600_000 - 50);
    await rounds.now([1]);
    expect(rounds.nextTry(1)).toBeNull();
    expect(rounds.lastRound(1)?.ok).toBe(true);
  });

  it('a refused login and a missing password wait for the user: the background leaves them, Sync now does not', async () => {
    const { rounds, runs, logged } = peers([{ id: 1, ok: false, transient: false, error: 'refused' }], { missing: new Set([2]) });
    await rounds.run(1);
    await rounds.run(2);
    rounds.due([1, 2]);
    await Promise.resolve();
    expect(runs).toEqual([1]);
    expect(rounds.nextTry(1)).toBeNull();
    expect(logged).toEqual(['warn sync of 1: refused']);
    await rounds.now([1]);
    expect(runs).toEqual([1, 1]);
  });

  it('one round per peer at a time; cancelling ends it; a round that throws is reported, not thrown', async () => {
    const { rounds, runs, logged } = peers(['hang', new Error('bug')]);
    const a = rounds.run(1);
    const b = rounds.run(1);
    expect(a).toBe(b);
    expect(rounds.running(1)).toBe(true);
    await rounds.cancel(1);
    expect(rounds.running(1)).toBe(false);
    expect((await a).error).toBe('aborted');
    expect((await rounds.run(1)).error).toBe('bug');
    expect(runs).toEqual([1, 1]);
    expect(logged).toEqual(['error sync of 1 failed: aborted', 'error sync of 1 failed: bug']);
  });
});
