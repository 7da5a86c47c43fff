/**
 * Limits on the work one calendar file can cause, checked on its lines before ical.js sees them.
 *
 * ical.js adds a duration or a rule's step to a time day by day (its normalisation walks months), so
 * `DURATION:P999999999999999999W` or `RRULE:FREQ=DAILY;INTERVAL=99999999` kept the server busy for
 * minutes with one line. No event lasts, and no rule steps, more than a century: such a line is
 * refused with its line number before anything is computed from it.
 */

/** Longest duration and longest rule step accepted: 100 years. */
export const MAX_SPAN_DAYS = 36_525;
export const MAX_SPAN_LABEL = '100 years';
/** Components nested deeper than this are refused (a calendar needs four: VCALENDAR > VEVENT > VALARM). */
export const MAX_NESTING = 16;
/** Lines in one component; real events have tens, an event with a few thousand attendees has thousands. */
export const MAX_LINES_PER_COMPONENT = 20_000;
/** Distinct time zones (TZIDs) in one file: Almanac builds each one's rules for the years the events use. */
export const MAX_TIME_ZONES = 64;
/**
 * STANDARD and DAYLIGHT observances in one VTIMEZONE. ical.js reads them all for every time it
 * converts (100,000 of them took 1.3 s and half a gigabyte); a zone changing at most monthly, as
 * time zones do, needs 1,200 for a century, and the tz database's busiest zone has fewer than 300
 * changes in all its history.
 */
export const MAX_ZONE_OBSERVANCES = 1200;
/** Years a generated time zone covers at most; earlier and later dates keep the nearest rules. */
export const ZONE_YEARS = { min: 1900, max: 2200 };
/** Unknown properties warned about one by one; more are counted in one warning. */
export const MAX_UNKNOWN_PROPERTY_WARNINGS = 20;
/**
 * Occurrence rows one import writes for its series (each series also has at most 24 occurrences a
 * day, recurrence.ts): a small file of many busy rules must not take longer than a large file of
 * plain events. Series past it get their rows later, a batch at a time, as the calendar extends
 * its series in the background (store/series-horizon.ts).
 */
export const MAX_IMPORT_OCCURRENCE_ROWS = 200_000;
/**
 * Steps of ical.js's search for occurrences in the whole file (rule-steps.ts); a plain rule takes
 * one per occurrence, a step costs up to 10 µs.
 */
export const MAX_FILE_RULE_STEPS = 2_000_000;

const DURATION = /^([+-])?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/i;

/** Days a duration value spans, or undefined when it is not one (ical.js then says what is wrong). */
export function durationDays(value: string): number | undefined {
  const m = DURATION.exec(value.trim());
  if (!m) return undefined;
  const n = (i: number) => (m[i] ? Number(m[i]) : 0);
  return n(2) * 7 + n(3) + n(4) / 24 + n(5) / 1440 + n(6) / 86_400;
}

/** Why a DURATION value (or a period's duration) is refused, if it is. */
export function durationProblem(value: string): string | undefined {
  const days = durationDays(value);
  if (days === undefined || days <= MAX_SPAN_DAYS) return undefined;
  return `the duration "${value.trim().slice(0, 40)}" is longer than ${MAX_SPAN_LABEL}, which no event lasts`;
}

const FREQ_DAYS: Record<string, number> = {
  SECONDLY: 1 / 86_400,
  MINUTELY: 1 / 1440,
  HOURLY: 1 / 24,
  DAILY: 1,
  WEEKLY: 7,
  MONTHLY: 31,
  YEARLY: 366,
};

/** Why a rule (RRULE, EXRULE) is refused, if it is: its step is longer than the limit. */
export function ruleProblem(value: string): string | undefined {
  const parts = new Map(
    value.split(';').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim().toUpperCase(), part.slice(at + 1).trim()] as const;
    }),
  );
  const interval = Number(parts.get('INTERVAL') ?? 1);
  const unit = FREQ_DAYS[(parts.get('FREQ') ?? '').toUpperCase()];
  if (!unit || !Number.isFinite(interval) || interval * unit <= MAX_SPAN_DAYS) return undefined;
  return `the rule's step (FREQ=${parts.get('FREQ')};INTERVAL=${interval}) is longer than ${MAX_SPAN_LABEL}`;
}

/**
 * Why a time zone's rule (RRULE in STANDARD or DAYLIGHT) is refused, if it is: ical.js expands it
 * from its start (1601 in Outlook's files) to 2035 for every time it converts, which took a minute
 * for an hourly rule. Time zones change at most a few times a year.
 */
export function zoneRuleProblem(value: string): string | undefined {
  const freq = /(?:^|;)\s*FREQ\s*=\s*([A-Z]+)/i.exec(value)?.[1]?.toUpperCase();
  if (!freq || freq === 'YEARLY' || freq === 'MONTHLY') return undefined;
  return `a time zone's rule repeats ${freq.toLowerCase()}, but time zones change at most monthly`;
}
