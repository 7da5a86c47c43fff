/** TZID resolution: which IANA zone a file's TZID stands for, and its registration with ical.js. */
import ICAL from 'ical.js';
import { IANAZone } from 'luxon';
import { vtimezoneLines } from './vtimezone';
import type { ImportProblem } from './import-types';
import { messageOf } from './problems';
import type { Scan } from './scan';
import { WINDOWS_ZONES } from './windows-zones';

type IcalComponent = InstanceType<typeof ICAL.Component>;
type IcalTimezone = InstanceType<typeof ICAL.Timezone>;

type ZoneResolution = { zone: string } | { custom: IcalComponent } | { unknown: true };

/**
 * The TZIDs of one file: what IANA zone each stands for, and their registration with ical.js for
 * the duration of the import (its recurrence engine compares UNTIL, EXDATE and RECURRENCE-ID values
 * across zones, which needs real offsets).
 */
export class Zones {
  private readonly definitions = new Map<string, { component: IcalComponent; line: number }>();
  private readonly resolutions = new Map<string, ZoneResolution>();
  private readonly registered: string[] = [];

  constructor(
    roots: IcalComponent[],
    private readonly scan: Scan,
    private readonly siteZone: string,
    private readonly warnings: ImportProblem[],
  ) {
    for (const root of roots) {
      for (const vtimezone of root.getAllSubcomponents('vtimezone')) {
        const tzid = vtimezone.getFirstPropertyValue('tzid');
        if (typeof tzid === 'string' && !this.definitions.has(tzid)) {
          this.definitions.set(tzid, { component: vtimezone, line: scan.tzids.get(tzid) ?? 1 });
        }
      }
    }
  }

  register(fromYear: number, toYear: number): void {
    for (const tzid of this.scan.tzids.keys()) {
      const resolution = this.resolve(tzid);
      if (ICAL.TimezoneService.has(tzid)) continue;
      let timezone: IcalTimezone | undefined;
      try {
        const definition = this.definitions.get(tzid);
        if (definition) {
          // The file's own definition is what its producer computed the times with.
          timezone = new ICAL.Timezone(definition.component);
        } else if ('zone' in resolution) {
          const lines = vtimezoneLines(resolution.zone, fromYear, toYear, tzid);
          timezone = new ICAL.Timezone(new ICAL.Component(ICAL.parse(lines.join('\r\n'))));
        }
      } catch (err) {
        this.warnings.push({
          line: this.scan.tzids.get(tzid) ?? 1,
          message: `The definition of time zone "${tzid}" could not be read (${messageOf(err)}).`,
        });
      }
      if (timezone) {
        ICAL.TimezoneService.register(timezone, tzid);
        this.registered.push(tzid);
      }
    }
  }

  unregister(): void {
    for (const tzid of this.registered) ICAL.TimezoneService.remove(tzid);
    this.registered.length = 0;
  }

  resolve(tzid: string): ZoneResolution {
    const cached = this.resolutions.get(tzid);
    if (cached) return cached;
    const definition = this.definitions.get(tzid);
    const location = definition?.component.getFirstPropertyValue('x-lic-location');
    // Fractional offsets (`UTC+5:30`, which Almanac itself writes) have no IANA equivalent.
    const iana =
      ianaZoneFor(tzid) ?? (typeof location === 'string' ? ianaZoneFor(location) : undefined) ?? offsetZone(tzid);
    let resolution: ZoneResolution;
    const line = this.scan.tzids.get(tzid) ?? definition?.line ?? 1;
    if (iana) resolution = { zone: iana };
    else if (definition) {
      resolution = { custom: definition.component };
      this.warnings.push({
        line,
        message: `Time zone "${tzid}" is not a known zone; its times were converted with the file's definition and shown in ${this.siteZone}.`,
      });
    } else {
      resolution = { unknown: true };
      this.warnings.push({
        line,
        message: `Time zone "${tzid}" is unknown and the file does not define it; its times were read as ${this.siteZone} times.`,
      });
    }
    this.resolutions.set(tzid, resolution);
    return resolution;
  }
}

/**
 * The IANA zone a TZID stands for: IANA ids as they are, Windows names through CLDR's table,
 * vendor-prefixed ids (`/mozilla.org/20050126_1/Europe/Berlin`) by their tail, whole-hour
 * `UTC+2`/`GMT-5` as `Etc/GMT∓n`.
 */
export function ianaZoneFor(tzid: string): string | undefined {
  const id = tzid.trim().replace(/^"(.*)"$/, '$1').trim();
  if (!id) return undefined;
  const valid = validIana(id);
  if (valid) return valid;
  const windows = WINDOWS_ZONES[id.toLowerCase()];
  if (windows) return windows;
  const segments = id.split('/').filter(Boolean);
  for (let n = Math.min(3, segments.length); n >= 2; n--) {
    const tail = validIana(segments.slice(-n).join('/'));
    if (tail) return tail;
  }
  const offset = /^(?:UTC|GMT)\s*([+-])(\d{1,2})(?::?00)?$/i.exec(id);
  if (offset && Number(offset[2]) <= 14) {
    const hours = Number(offset[2]);
    return hours === 0 ? 'UTC' : `Etc/GMT${offset[1] === '+' ? '-' : '+'}${hours}`;
  }
  return undefined;
}

const validIanaCache = new Map<string, string | undefined>();

function validIana(id: string): string | undefined {
  if (validIanaCache.has(id)) return validIanaCache.get(id);
  let valid: string | undefined;
  if (IANAZone.isValidZone(id)) {
    // Intl accepts any letter case; keep the canonical spelling, but never swap an alias for another.
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: id }).resolvedOptions().timeZone;
    valid = resolved.toLowerCase() === id.toLowerCase() ? resolved : id;
  }
  validIanaCache.set(id, valid);
  return valid;
}

/** A zone the API accepts in `timezone`: an IANA id or the `UTC+2` / `UTC-5:30` offset form. */
export function apiZone(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return offsetZone(value) ?? validIana(value.trim());
}

/** The API's `UTC+2` / `UTC-5:30` form, upper-cased; undefined for anything else. */
export function offsetZone(value: string): string | undefined {
  const v = value.trim();
  return /^UTC[+-]\d{1,2}(?::\d{2})?$/i.test(v) ? v.toUpperCase() : undefined;
}
