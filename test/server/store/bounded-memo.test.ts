/**
 * The memos that spare bulk imports and exports the same date conversions (store/bounded-memo.ts):
 * an answer is worked out once per key, keys of different types or zones never share an answer,
 * and a full memo starts again instead of growing.
 */
import { describe, expect, it } from 'vitest';
import { BoundedPairMemo } from '../../../electron/server/store/bounded-memo';
import { EventDateMemo } from '../../../electron/server/store/event-dates';

describe('BoundedPairMemo', () => {
  it('works an answer out once per pair of keys, and never mixes zones or a number with its text', () => {
    const memo = new BoundedPairMemo<string>(100);
    let computed = 0;
    const ask = (zone: string, key: string | number) => memo.get(zone, key, () => `${zone}:${typeof key}:${key}:${++computed}`);
    expect(ask('Europe/Lisbon', 5)).toBe('Europe/Lisbon:number:5:1');
    expect(ask('Europe/Lisbon', '5')).toBe('Europe/Lisbon:string:5:2');
    expect(ask('America/New_York', 5)).toBe('America/New_York:number:5:3');
    expect(ask('Europe/Lisbon', 5)).toBe('Europe/Lisbon:number:5:1');
    expect(computed).toBe(3);
  });

  it('forgets everything when full, and goes on answering', () => {
    const memo = new BoundedPairMemo<number>(3);
    let computed = 0;
    const ask = (zone: string, key: number) => memo.get(zone, key, () => key * 10 + 0 * ++computed);
    for (const key of [1, 2, 3]) ask('a', key);
    expect(computed).toBe(3);
    expect(ask('b', 4)).toBe(40); // full: starts again with this one
    expect(computed).toBe(4);
    expect(ask('a', 1)).toBe(10); // forgotten, worked out again
    expect(computed).toBe(5);
    expect(ask('b', 4)).toBe(40); // kept
    expect(computed).toBe(5);
  });
});

describe('EventDateMemo', () => {
  it('reads a relative date again when "now" changes', () => {
    const memo = new EventDateMemo();
    const monday = new Date('2026-03-09T12:00:00Z');
    const tuesday = new Date('2026-03-10T12:00:00Z');
    const first = memo.localOf('tomorrow', 'Europe/Lisbon', monday);
    const second = memo.localOf('tomorrow', 'Europe/Lisbon', tuesday);
    expect(first?.slice(0, 10)).toBe('2026-03-10');
    expect(second?.slice(0, 10)).toBe('2026-03-11');
  });

  it('gives the same local and UTC times as working them out afresh, zone by zone', () => {
    const memo = new EventDateMemo();
    const now = new Date('2026-03-09T12:00:00Z');
    for (const zone of ['Europe/Lisbon', 'America/New_York', 'Asia/Kolkata']) {
      for (let i = 0; i < 3; i++) {
        expect(memo.localOf('2026-03-29 01:30:00', zone, now)).toBe(new EventDateMemo().localOf('2026-03-29 01:30:00', zone, now));
        expect(memo.utcOf('2026-07-01 09:00:00', zone)).toBe(new EventDateMemo().utcOf('2026-07-01 09:00:00', zone));
      }
    }
    expect(memo.utcOf('2026-07-01 09:00:00', 'Europe/Lisbon')).toBe('2026-07-01 08:00:00');
    expect(memo.utcOf('2026-07-01 09:00:00', 'Asia/Kolkata')).toBe('2026-07-01 03:30:00');
  });
});
