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
