/**
 * Following a sync round the server runs after it answered ("Sync now", a decision on held
 * deletions, a website's first pull): look again every half second while the answer says it is
 * still going, for two minutes at most (a round that long is left to the background polls).
 */
const EVERY_MS = 500;
const AT_MOST_MS = 120_000;

/** `look()` until `going(answer)` is false or the time is up; resolves with the last answer. */
export async function pollWhile<T>(look: () => Promise<T>, going: (answer: T) => boolean, { everyMs = EVERY_MS, atMostMs = AT_MOST_MS } = {}): Promise<T> {
  const until = Date.now() + atMostMs;
  for (;;) {
    const answer = await look();
    if (!going(answer) || Date.now() > until) return answer;
    await new Promise((ok) => setTimeout(ok, everyMs));
  }
}
