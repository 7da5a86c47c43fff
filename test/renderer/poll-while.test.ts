/**
 * The one wait for a sync round the server runs after answering (Sync now, held deletions, a
 * website's first pull): it asks again while the round goes on, stops when it is over, and gives
 * up after its time rather than spin for ever on a round that never ends.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollWhile } from '../../renderer/src/state/pollWhile';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('pollWhile', () => {
  it('asks again every half second while the answer says the round goes on, and hands back the last answer', async () => {
    const answers = ['syncing', 'syncing', 'ok'];
    const look = vi.fn(async () => answers.shift()!);
    const done = pollWhile(look, (a) => a === 'syncing');
    await vi.advanceTimersByTimeAsync(499);
    expect(look).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(look).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(500);
    await expect(done).resolves.toBe('ok');
    expect(look).toHaveBeenCalledTimes(3);
  });

  it('stops after two minutes of a round that never ends', async () => {
    const look = vi.fn(async () => 'syncing');
    let over = false;
    void pollWhile(look, () => true).then(() => (over = true));
    await vi.advanceTimersByTimeAsync(119_000);
    expect(over).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(over).toBe(true);
    const asked = look.mock.calls.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(look).toHaveBeenCalledTimes(asked);
  });
});
