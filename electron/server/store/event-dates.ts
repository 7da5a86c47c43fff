/**
 * An event's stored dates from what was written: the local times in its zone (what lists compare,
 * as the original does) and UTC (what calendars place events by). A pure function of the values,
 * the stored row and the context, so the store and an import's reading thread (which works them
 * out while the writing thread writes the events before) give the same answer.
 */
import { parseDate } from '../../../shared/dates/parse';
import { formatLocal, localToUtc, startOfDay, endOfDay } from '../../../shared/dates/format';
import { invalidParam } from '../errors';
import { BoundedPairMemo } from './bounded-memo';
import type { Values, WriteContext } from './post-fields';

export interface EventDates {
  timezone: string;
  all_day: 0 | 1;
  start_local: string;
  end_local: string;
  start_utc: string;
  end_utc: string;
}

/** What an update keeps of the stored event when the values leave a date out. */
export interface StoredDates {
  timezone: string;
  start_local: string;
  end_local: string;
  all_day: number;
}

/**
 * What `parseDate` + `formatLocal` and `localToUtc` answered, by their inputs: both are pure
 * functions of them (the date text, the zone, "now"), and a bulk import asks the same ones again
 * and again (events at the same hours). Bounded: forgotten whole when full.
 */
export class EventDateMemo {
  private readonly local = new BoundedPairMemo<string | null>(20_000);
  private readonly utc = new BoundedPairMemo<string>(20_000);
  /** The "now" the local answers are for: relative texts ("tomorrow") depend on it. */
  private localNow = NaN;

  localOf(value: string | number, zone: string, now: Date): string | null {
    if (now.getTime() !== this.localNow) {
      this.local.clear();
      this.localNow = now.getTime();
    }
    // A number and its text are two keys (Map keys keep their type): they are read differently.
    return this.local.get(zone, value, () => {
      const dt = parseDate(value, { zone, now });
      return dt ? formatLocal(dt) : null; // parseDate answers in `zone` already
    });
  }

  utcOf(local: string, zone: string): string {
    return this.utc.get(zone, local, () => localToUtc(local, zone));
  }
}

/** The stored dates after a create or update (reference §5.1; corrections 5 and 8). */
export function resolveEventDates(values: Values, existing: StoredDates | undefined, ctx: Pick<WriteContext, 'now' | 'siteZone'>, memo: EventDateMemo): EventDates {
  const zone = values.timezone !== undefined ? (values.timezone as string) || ctx.siteZone : (existing?.timezone ?? ctx.siteZone);
  const read = (name: 'start_date' | 'end_date', stored: string | undefined): string => {
    if (values[name] === undefined) return stored!;
    const local = memo.localOf(values[name] as string | number, zone, ctx.now);
    if (local === null) throw invalidParam(name, 'invalid_date');
    return local;
  };
  let start = read('start_date', existing?.start_local);
  let end = read('end_date', existing?.end_local);
  const allDay = values.all_day !== undefined ? (values.all_day as boolean) : !!existing?.all_day;
  // An end before the start becomes the start, before the whole-day rounding: rounded after, an
  // all-day event would end at 00:00 and the next save (which rounds again) would move it.
  if (end < start) end = start;
  if (allDay) {
    start = startOfDay(start);
    end = endOfDay(end);
  }
  return {
    timezone: zone,
    all_day: allDay ? 1 : 0,
    start_local: start,
    end_local: end,
    start_utc: memo.utcOf(start, zone),
    end_utc: memo.utcOf(end, zone),
  };
}
