/**
 * Time zone ids as the original API accepts them: IANA ids (`Europe/Lisbon`), `UTC`, and the
 * WordPress fixed offsets (`UTC+2`, `UTC-5`, `UTC+5:30`, `UTC+05:30`).
 */
import { FixedOffsetZone, IANAZone, Zone } from 'luxon';

// Only forms luxon also reads (callers pass the id to luxon's setZone): WordPress's decimal
// `UTC+5.5` is not one of them.
const FIXED_OFFSET = /^UTC([+-])(\d{1,2})(?::(\d{2}))?$/i;

/** Offset in minutes east of UTC for a `UTC±h[:mm]` id, or null when `zone` is not one. */
export function fixedOffsetMinutes(zone: string): number | null {
  const m = FIXED_OFFSET.exec(zone);
  if (!m) return null;
  const hours = Number(m[2]);
  const minutes = m[3] === undefined ? 0 : Number(m[3]);
  if (minutes >= 60) return null;
  const total = hours * 60 + minutes;
  // No zone is more than 14 hours from UTC.
  if (total > 14 * 60) return null;
  return (m[1] === '-' ? -1 : 1) * total;
}

// Asking Intl whether a zone exists builds a formatter each time (a fraction of a millisecond);
// the same few zones are asked about on every request.
const validZones = new Set<string>();

export function isValidTimeZone(zone: string): boolean {
  if (typeof zone !== 'string' || zone === '') return false;
  if (validZones.has(zone)) return true;
  if (/^UTC[+-]/i.test(zone)) return fixedOffsetMinutes(zone) !== null;
  // Intl also takes `+02:00`-style ids on newer engines; the original never stores those.
  if (/^[+-]/.test(zone)) return false;
  if (!IANAZone.isValidZone(zone)) return false;
  // Only valid ids are kept; the cap guards against endless spellings ("aMeRiCa/...").
  if (validZones.size < 2000) validZones.add(zone);
  return true;
}

/** The zone of this machine: `TZ` when set and valid, else what Intl reports, else UTC. */
export function systemTimeZone(): string {
  // Through globalThis: the renderer has no `process`, and its tsconfig has no Node types.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.TZ;
  if (env) {
    // POSIX allows a leading colon (`TZ=:Europe/Paris`).
    const tz = env.startsWith(':') ? env.slice(1) : env;
    if (isValidTimeZone(tz)) return tz;
  }
  try {
    const resolved = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (resolved && isValidTimeZone(resolved)) return resolved;
  } catch {
    // An engine without time zone data: fall through.
  }
  return 'UTC';
}

const DAY = 86_400_000;

/** A UTC day's offsets: one for the whole day, or the one change in it (at `at`, epoch ms). */
type DayOffsets = number | { at: number; before: number; after: number };

/**
 * An IANA zone whose UTC offsets are remembered. Luxon asks Intl for the offset of every instant
 * it handles, which was most of the cost of reading and writing events. Offsets only change at
 * transitions, and no zone changes twice within a UTC day: a day with the same offset at both
 * ends has it throughout, and on a day with a change the instant of the change is found once (to
 * the second: historical local mean time changes fall at odd seconds), so every answer is exact.
 */
class CachedOffsetZone extends Zone {
  private readonly days = new Map<number, DayOffsets>();

  constructor(private readonly inner: IANAZone) {
    super();
  }

  override get type() {
    return this.inner.type;
  }
  override get name() {
    return this.inner.name;
  }
  override get isUniversal() {
    return false;
  }
  override get isValid() {
    return this.inner.isValid;
  }
  override offsetName(ts: number, opts: { format?: 'short' | 'long'; locale?: string }) {
    return this.inner.offsetName(ts, opts);
  }
  override formatOffset(ts: number, format: 'narrow' | 'short' | 'techie') {
    return this.inner.formatOffset(ts, format);
  }
  override offset(ts: number): number {
    const day = Math.floor(ts / DAY);
    let known = this.days.get(day);
    if (known === undefined) {
      if (this.days.size > 100_000) this.days.clear();
      known = this.dayOffsets(day);
      this.days.set(day, known);
    }
    if (typeof known === 'number') return known;
    return ts < known.at ? known.before : known.after;
  }
  private dayOffsets(day: number): DayOffsets {
    const start = day * DAY;
    const before = this.inner.offset(start);
    const after = this.inner.offset(start + DAY - 1000);
    if (before === after) return before;
    // The first whole second with the new offset (Intl answers to the second).
    let lo = start / 1000;
    let hi = lo + DAY / 1000 - 1;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.inner.offset(mid * 1000) === before) lo = mid;
      else hi = mid;
    }
    return { at: hi * 1000, before, after };
  }
  override equals(other: Zone): boolean {
    return other.type === 'iana' && other.name === this.name;
  }
}

const cachedZones = new Map<string, CachedOffsetZone>();

/** The luxon zone for a valid id; throws RangeError for an invalid one. */
export function zoneFor(zone: string): Zone {
  const fixed = fixedOffsetMinutes(zone);
  if (fixed !== null) return fixed === 0 ? FixedOffsetZone.utcInstance : FixedOffsetZone.instance(fixed);
  if (/^UTC$/i.test(zone)) return FixedOffsetZone.utcInstance;
  if (!isValidTimeZone(zone)) throw new RangeError(`Invalid time zone: ${zone}`);
  let cached = cachedZones.get(zone);
  if (!cached) {
    cached = new CachedOffsetZone(IANAZone.create(zone));
    cachedZones.set(zone, cached);
  }
  return cached;
}

/*
 * Abbreviations. PHP prints the tz database's abbreviation; Intl prints CLDR's, which exists only
 * in some locales and is sometimes a name the tz database does not use (`GST` for Dubai, where the
 * database says `+04`). Intl is asked in the locales below, in order, and the zones where that still
 * differs from PHP 8.2 with tzdata 2025b are listed in ABBR_OVERRIDES (found by comparing every zone
 * PHP knows, in January and July). `null` means the database has no letters: the numeric form.
 */
const ABBR_LOCALES = [
  'en-US', 'en-GB', 'en-AU', 'en-IN', 'ja', 'en-NZ', 'en-ZA', 'en-CA', 'en-KE', 'en-NG', 'en-HK',
  'en-PK', 'en-IE',
];

type Abbr = string | null;
/** [standard time, daylight time]; the second defaults to the first. */
const ABBR_OVERRIDES: Record<string, readonly [Abbr, Abbr?]> = {
  'America/Adak': ['HST', 'HDT'],
  'America/Dawson': ['MST'],
  'America/Havana': ['CST', 'CDT'],
  'America/Hermosillo': ['MST'],
  'America/Mazatlan': ['MST'],
  'America/Miquelon': [null],
  'America/Whitehorse': ['MST'],
  'Antarctica/Casey': [null],
  'Antarctica/Troll': [null],
  'Asia/Colombo': [null],
  'Asia/Dubai': [null],
  'Asia/Jakarta': ['WIB'],
  'Asia/Jayapura': ['WIT'],
  'Asia/Jerusalem': ['IST', 'IDT'],
  'Asia/Karachi': ['PKT'],
  'Asia/Macau': ['CST'],
  'Asia/Makassar': ['WITA'],
  'Asia/Manila': ['PST'],
  'Asia/Muscat': [null],
  'Asia/Pontianak': ['WIB'],
  'Asia/Pyongyang': ['KST'],
  'Asia/Seoul': ['KST'],
  'Asia/Shanghai': ['CST'],
  'Asia/Taipei': ['CST'],
  'Australia/Eucla': [null],
  'Australia/Lord_Howe': [null],
  'Etc/GMT': ['GMT'],
  'Europe/Guernsey': ['GMT', 'BST'],
  'Europe/Isle_of_Man': ['GMT', 'BST'],
  'Europe/Jersey': ['GMT', 'BST'],
  'Europe/Kirov': ['MSK'],
  'Europe/Moscow': ['MSK'],
  'Europe/Simferopol': ['MSK'],
  'Europe/Volgograd': ['MSK'],
  'GMT': ['GMT'],
  'GMT0': ['GMT'],
  'Pacific/Chatham': [null],
  'Pacific/Guam': ['ChST'],
  'Pacific/Midway': ['SST'],
  'Pacific/Pago_Pago': ['SST'],
  'Pacific/Saipan': ['ChST'],
};

function numericAbbr(offset: number): string {
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = abs % 60;
  return sign + hh + (mm ? String(mm).padStart(2, '0') : '');
}

function canonicalName(zone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

function intlAbbr(zone: string, ms: number): string | null {
  for (const locale of ABBR_LOCALES) {
    let name: string | undefined;
    try {
      name = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' })
        .formatToParts(ms)
        .find((p) => p.type === 'timeZoneName')?.value;
    } catch {
      return null;
    }
    if (name && /^[A-Z]{2,5}$/.test(name)) return name;
  }
  return null;
}

/**
 * The abbreviation PHP's `T` format gives for `zone` at the UTC instant `utc`
 * (`YYYY-MM-DD HH:mm:ss`): `EST`, `CEST`, `-03`, `+0545`; a `UTC+2` id is returned as given.
 */
export function timezoneAbbr(zone: string, utc: string): string {
  if (fixedOffsetMinutes(zone) !== null) return zone;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(utc);
  if (!m) throw new RangeError(`Not a Y-m-d H:i:s date: ${utc}`);
  const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  const lz = zoneFor(zone);
  if (lz.type === 'fixed') return lz.offset(ms) === 0 ? 'UTC' : numericAbbr(lz.offset(ms));
  const offset = lz.offset(ms);
  const year = +m[1];
  // Asking Intl in up to a dozen locales is slow and lists call this once per event.
  const key = `${zone}|${year}|${offset}`;
  let abbr = abbrCache.get(key);
  if (abbr === undefined) {
    abbr = computeAbbr(zone, lz, ms, year, offset);
    abbrCache.set(key, abbr);
  }
  return abbr;
}

const abbrCache = new Map<string, string>();

function computeAbbr(zone: string, lz: Zone, ms: number, year: number, offset: number): string {
  const override = ABBR_OVERRIDES[zone] ?? ABBR_OVERRIDES[canonicalName(zone) ?? ''];
  if (override) {
    const standard = Math.min(lz.offset(Date.UTC(year, 0, 1)), lz.offset(Date.UTC(year, 6, 1)));
    const abbr = offset > standard && override.length > 1 ? override[1] : override[0];
    return abbr ?? numericAbbr(offset);
  }
  return intlAbbr(zone, ms) ?? numericAbbr(offset);
}
