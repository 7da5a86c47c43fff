/** The cached zone must give exactly the offsets Intl gives, transitions included. */
import { describe, it, expect } from 'vitest';
import { IANAZone } from 'luxon';
import { zoneFor } from '../../../shared/dates/zones';

const ZONES = ['America/New_York', 'Europe/Lisbon', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/Sao_Paulo', 'Africa/Casablanca', 'Asia/Kathmandu', 'America/St_Johns'];

describe('cached zone offsets', () => {
  it.each(ZONES)('match Intl at a random instant of every hour of 2023-2026 in %s', (name) => {
    const cached = zoneFor(name);
    const plain = new IANAZone(name);
    const start = Date.UTC(2023, 0, 1);
    const end = Date.UTC(2027, 0, 1);
    let mismatches = 0;
    // A random instant in each hour, so the per-day cache is filled from arbitrary instants and
    // every transition hour is probed on both sides over the runs.
    for (let t = start; t < end; t += 3_600_000) {
      const probe = t + Math.floor(Math.random() * 3_600_000);
      if (cached.offset(probe) !== plain.offset(probe)) mismatches++;
    }
    expect(mismatches).toBe(0);
    expect(cached.name).toBe(name);
  });
});

describe('cached zone offsets on the days they change', () => {
  // Local mean time ended at odd seconds (Abidjan's -0:16:08 in 1912): a cache that assumed changes
  // on the quarter hour answered the old offset for up to fifteen minutes after them.
  it.each(['Africa/Abidjan', 'Europe/Lisbon', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'])('match Intl to the second around every change of %s, 1880-1940', (name) => {
    const cached = zoneFor(name);
    const plain = new IANAZone(name);
    let changes = 0;
    let mismatches = 0;
    for (let day = Date.UTC(1880, 0, 1); day < Date.UTC(1940, 0, 1); day += 86_400_000) {
      if (plain.offset(day) === plain.offset(day + 86_399_000)) continue;
      changes++;
      for (let t = day; t < day + 86_400_000; t += 7_001) if (cached.offset(t) !== plain.offset(t)) mismatches++;
    }
    expect(changes).toBeGreaterThan(0);
    expect(mismatches).toBe(0);
  });
});
