/**
 * The VTIMEZONEs Almanac writes, as the world writes them (issue 25 item 3): real abbreviations,
 * no observance that changes nothing, RFC 5545's order (DTSTART first in an observance, as in its
 * examples). That their offsets are right is export.test.ts's noon-by-noon comparison.
 */
import { describe, expect, it } from 'vitest';
import { vtimezoneLines } from '../../../electron/server/icalendar/vtimezone';

interface Observance {
  kind: string;
  lines: string[];
  get(name: string): string | undefined;
}

function observances(lines: string[]): Observance[] {
  const out: Observance[] = [];
  let current: string[] | undefined;
  for (const l of lines) {
    if (l === 'BEGIN:STANDARD' || l === 'BEGIN:DAYLIGHT') current = [l];
    else if (current && (l === 'END:STANDARD' || l === 'END:DAYLIGHT')) {
      const body = current.slice(1);
      out.push({ kind: current[0].slice(6), lines: body, get: (name) => body.find((b) => b.startsWith(`${name}:`))?.slice(name.length + 1) });
      current = undefined;
    } else current?.push(l);
  }
  return out;
}

const names = (zone: string, from = 2030, to = 2032) => observances(vtimezoneLines(zone, from, to)).map((o) => `${o.kind}:${o.get('TZNAME')}`);

describe('vtimezoneLines', () => {
  it('names Madrid, Berlin and Lisbon as Europe does (CET/CEST, WET/WEST), New York and Sydney as before', () => {
    expect(new Set(names('Europe/Madrid'))).toEqual(new Set(['STANDARD:CET', 'DAYLIGHT:CEST']));
    expect(new Set(names('Europe/Berlin'))).toEqual(new Set(['STANDARD:CET', 'DAYLIGHT:CEST']));
    expect(new Set(names('Europe/Lisbon'))).toEqual(new Set(['STANDARD:WET', 'DAYLIGHT:WEST']));
    expect(new Set(names('Europe/London'))).toEqual(new Set(['STANDARD:GMT', 'DAYLIGHT:BST']));
    expect(new Set(names('America/New_York'))).toEqual(new Set(['STANDARD:EST', 'DAYLIGHT:EDT']));
    expect(new Set(names('Australia/Sydney'))).toEqual(new Set(['STANDARD:AEST', 'DAYLIGHT:AEDT']));
    expect(names('Asia/Tokyo')).toEqual(['STANDARD:JST']);
    // The tz database has no letters for São Paulo: the same "-03" the API's records give as timezone_abbr.
    expect(names('America/Sao_Paulo')).toEqual(['STANDARD:-03']);
  });

  it('a zone with no abbreviation anywhere is named by its offset as the tz database does, never "GMT+x"', () => {
    const all = [...names('Africa/Casablanca', 2030, 2032), ...names('UTC+5:30'), ...names('Asia/Tashkent'), ...names('America/Bogota')];
    for (const n of all) expect(n).not.toMatch(/GMT[+-]/);
    expect(names('Asia/Tashkent')).toEqual(['STANDARD:+05']);
    expect(names('America/Bogota')).toEqual(['STANDARD:-05']);
  });

  it('writes no observance that changes nothing when the zone has transitions', () => {
    for (const zone of ['Europe/Madrid', 'America/New_York', 'Australia/Sydney', 'America/Sao_Paulo']) {
      const obs = observances(vtimezoneLines(zone, 2016, 2032));
      expect(obs.length).toBeGreaterThan(0);
      for (const o of obs) expect(`${zone} ${o.get('TZOFFSETFROM')}→${o.get('TZOFFSETTO')}`).not.toMatch(/ (\S+)→\1$/);
    }
  });

  it('a zone without transitions has one STANDARD observance', () => {
    const obs = observances(vtimezoneLines('Asia/Tokyo', 2030, 2032));
    expect(obs).toHaveLength(1);
    expect(obs[0]).toMatchObject({ kind: 'STANDARD' });
    expect([obs[0].get('TZOFFSETFROM'), obs[0].get('TZOFFSETTO')]).toEqual(['+0900', '+0900']);
  });

  it('orders each observance as RFC 5545 does: DTSTART, RRULE, TZOFFSETFROM, TZOFFSETTO, TZNAME', () => {
    const lines = vtimezoneLines('Europe/Madrid', 2030, 2032);
    expect(lines.slice(0, 3)).toEqual(['BEGIN:VTIMEZONE', 'TZID:Europe/Madrid', 'X-LIC-LOCATION:Europe/Madrid']);
    for (const o of observances(lines)) {
      expect(o.lines.map((l) => l.split(':')[0])).toEqual(['DTSTART', 'RRULE', 'TZOFFSETFROM', 'TZOFFSETTO', 'TZNAME']);
    }
  });
});
