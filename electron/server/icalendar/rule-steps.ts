/**
 * A limit on ical.js's own search for a rule's next occurrence. Its iterator steps second by
 * second, day by day… until the rule's BY parts match, without end for daily, hourly, minutely and
 * secondly rules: `RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31` never returned, and one such line held
 * the server for good. Its step methods are counted here (ical.js offers no hook), and past the
 * limit the search throws, which refuses that event naming its RRULE line.
 *
 * The count is per search (an occurrence more than 20,000 steps after the last is a rule that
 * never, or all but never, repeats: a 29 February found day by day takes 1,461; a step costs up to
 * 10 µs) and per file while an import holds `withRuleSteps`; outside of one, only the search is.
 */
import ICAL from 'ical.js';

/** Steps one search for the next occurrence may take. */
export const MAX_STEPS_PER_OCCURRENCE = 20_000;

const STEP_METHODS = ['next_second', 'next_minute', 'next_hour', 'next_day', 'next_week', 'next_month', 'next_year'] as const;

export class RuleTooSparse extends Error {}

const budget = { search: 0, file: Infinity };

type Iterator = Record<string, (...args: unknown[]) => unknown>;
const proto = (ICAL as unknown as { RecurIterator: { prototype: Iterator } }).RecurIterator.prototype;
const next = proto.next;
proto.next = function (this: unknown, ...args: unknown[]) {
  budget.search = 0;
  return next.apply(this, args);
};
for (const name of STEP_METHODS) {
  const step = proto[name];
  proto[name] = function (this: unknown, ...args: unknown[]) {
    if (++budget.search > MAX_STEPS_PER_OCCURRENCE) {
      throw new RuleTooSparse(`the rule finds no next occurrence within ${MAX_STEPS_PER_OCCURRENCE.toLocaleString('en')} steps, so it never repeats as written`);
    }
    if (--budget.file < 0) throw new RuleTooSparse('the rules of this file take too long to expand');
    return step.apply(this, args);
  };
}

/** Runs an import's work with `steps` of rule searching for the whole of it. */
export function withRuleSteps<T>(steps: number, work: () => T): T {
  budget.file = steps;
  try {
    return work();
  } finally {
    budget.file = Infinity;
  }
}
