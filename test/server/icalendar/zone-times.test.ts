/**
 * The importer's wall time ⇄ instant conversions remember each UTC day's offset: they must still
 * give exactly what asking Intl for every instant gives, on the days the clocks change too.
 */
import { describe, expect, it } from 'vitest';
import { epochOfWall, epochOfWallWith, offsetFinder, wallOfEpoch, wallOfEpochWith } from '../../../electron/server/icalendar/zone-times';

const ZONES = ['America/New_York', 'Europe/Lisbon', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Africa/Casablanca', 'Asia/Kathmandu', 'America/St_Johns', 'Europe/Amsterdam'];

/** Instants (epoch seconds) where the zone's offset changes between `from` and `to`. */
function changes(zone: string, from: number, to: number): number[] {
  const offsetAt = offsetFinder(zone)!;
  const found: number[] = [];
  for (let day = from; day < to; day += 86_400) {
    if (offsetAt(day) === offsetAt(day + 86_400)) continue;
    let lo = day;
    let hi = day + 86_400;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetAt(mid) === offsetAt(lo)) lo = mid;
      else hi = mid;
    }
    found.push(hi);
  }
  return found;
}

describe('time zone conversions of the import', () => {
  it.each(ZONES)('match Intl around every change of %s in 1930-1939, 1985-1986 and 2023-2026', (zone) => {
    // The same conversions asking Intl for every instant, as they did before the cache.
    const intl = offsetFinder(zone)!;
    const years = [[1930, 1940], [1985, 1987], [2023, 2027]];
    const at = years.flatMap(([from, to]) => changes(zone, Date.UTC(from, 0, 1) / 1000, Date.UTC(to, 0, 1) / 1000));
    expect(at.length).toBeGreaterThan(0);
    let mismatches = 0;
    let probes = 0;
    for (const change of at) {
      // Every 7 minutes and 13 seconds from three hours before the change to three hours after.
      for (let s = change - 3 * 3600; s <= change + 3 * 3600; s += 433) {
        const d = new Date(s * 1000);
        const wall = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
        if (epochOfWall(wall, zone) !== epochOfWallWith(intl, wall)) mismatches++;
        if (wallOfEpoch(s * 1000, zone) !== wallOfEpochWith(intl, s * 1000)) mismatches++;
        probes++;
      }
    }
    expect(probes).toBeGreaterThanOrEqual(50);
    expect(mismatches).toBe(0);
  });
});
