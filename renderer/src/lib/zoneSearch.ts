/**
 * Finding a time zone the way people name it: "New York", "São Paulo", "Lisboa", "Spain",
 * "Brasília", in any of the interface languages, not only as the IANA id `America/New_York`.
 *
 * The names come from the platform's own CLDR data through Intl: the short generic name of a zone
 * is its city ("Horário Nova York", "hora de São Paulo") or, for a country's main zone, its country
 * ("Portugal Time", "Horário Espanha"); the long generic name adds "Eastern Time", "Brasília".
 * Intl does not expose a city's translated name when the country's name stands for it, so the
 * few capitals and big cities whose names differ in Portuguese or Spanish are listed below.
 */
import { allZones, isValidZone } from './dates';

const LOCALES = ['en', 'pt-BR', 'es'] as const;

/** City names Intl gives no way to reach (its name for these zones is the country's). */
const ALSO_KNOWN_AS: Record<string, string> = {
  'America/Sao_Paulo': 'Brasília Brasilia Rio de Janeiro Belo Horizonte Brasil Brazil',
  'Europe/Lisbon': 'Lisboa Porto',
  'Europe/London': 'Londres Londra',
  'Europe/Madrid': 'España Barcelona Sevilha Sevilla Valência Valencia',
  'Europe/Paris': 'París',
  'Europe/Berlin': 'Berlim Berlín',
  'Europe/Rome': 'Roma Milão Milán',
  'Europe/Brussels': 'Bruxelas Bruselas',
  'Europe/Amsterdam': 'Amsterdã Ámsterdam',
  'Europe/Athens': 'Atenas',
  'Europe/Moscow': 'Moscou Moscú',
  'Europe/Warsaw': 'Varsóvia Varsovia',
  'Europe/Vienna': 'Viena',
  'Europe/Prague': 'Praga',
  'Europe/Copenhagen': 'Copenhague',
  'Europe/Stockholm': 'Estocolmo',
  'Europe/Dublin': 'Dublim Dublín',
  'Europe/Zurich': 'Zurique Zúrich Berna Berne Genebra Ginebra Geneva',
  'Asia/Tokyo': 'Tóquio Tokio',
  'Asia/Shanghai': 'Pequim Pekín Beijing',
  'America/Havana': 'La Habana',
  'America/Bogota': 'Bogotá',
};

/**
 * Abbreviations people type for a zone, to the zones they mean, most likely first. Intl names
 * zones but not by these letters, and a search of names alone finds "EST" in "West Africa".
 * Where one abbreviation has two meanings (CST, IST), the American or the commoner one leads.
 */
const ABBREVIATIONS: Record<string, string[]> = {
  et: ['America/New_York', 'America/Toronto'],
  est: ['America/New_York', 'America/Toronto', 'America/Detroit', 'America/Panama', 'America/Cancun'],
  edt: ['America/New_York', 'America/Toronto', 'America/Detroit'],
  ct: ['America/Chicago', 'America/Winnipeg'],
  cst: ['America/Chicago', 'America/Mexico_City', 'America/Winnipeg', 'America/Costa_Rica', 'Asia/Shanghai'],
  cdt: ['America/Chicago', 'America/Winnipeg'],
  mt: ['America/Denver', 'America/Edmonton'],
  mst: ['America/Denver', 'America/Phoenix', 'America/Edmonton'],
  mdt: ['America/Denver', 'America/Edmonton'],
  pt: ['America/Los_Angeles', 'America/Vancouver'],
  pst: ['America/Los_Angeles', 'America/Vancouver', 'America/Tijuana'],
  pdt: ['America/Los_Angeles', 'America/Vancouver', 'America/Tijuana'],
  akst: ['America/Anchorage'],
  akdt: ['America/Anchorage'],
  hst: ['Pacific/Honolulu'],
  ast: ['America/Halifax', 'America/Puerto_Rico', 'America/Santo_Domingo'],
  adt: ['America/Halifax'],
  nst: ['America/St_Johns'],
  ndt: ['America/St_Johns'],
  gmt: ['UTC', 'Europe/London', 'Europe/Dublin', 'Africa/Abidjan'],
  utc: ['UTC'],
  z: ['UTC'],
  bst: ['Europe/London'],
  ist: ['Asia/Kolkata', 'Europe/Dublin', 'Asia/Jerusalem'],
  wet: ['Europe/Lisbon', 'Atlantic/Canary'],
  west: ['Europe/Lisbon', 'Atlantic/Canary'],
  cet: ['Europe/Paris', 'Europe/Berlin', 'Europe/Madrid', 'Europe/Rome', 'Europe/Amsterdam', 'Europe/Brussels', 'Europe/Vienna', 'Europe/Warsaw'],
  cest: ['Europe/Paris', 'Europe/Berlin', 'Europe/Madrid', 'Europe/Rome', 'Europe/Amsterdam', 'Europe/Brussels', 'Europe/Vienna', 'Europe/Warsaw'],
  met: ['Europe/Paris', 'Europe/Berlin'],
  mez: ['Europe/Berlin', 'Europe/Vienna', 'Europe/Zurich'],
  eet: ['Europe/Athens', 'Europe/Helsinki', 'Europe/Bucharest', 'Europe/Kyiv', 'Africa/Cairo'],
  eest: ['Europe/Athens', 'Europe/Helsinki', 'Europe/Bucharest', 'Europe/Kyiv'],
  msk: ['Europe/Moscow'],
  brt: ['America/Sao_Paulo', 'America/Bahia', 'America/Fortaleza', 'America/Recife', 'America/Belem'],
  brst: ['America/Sao_Paulo'],
  brasilia: ['America/Sao_Paulo'],
  amt: ['America/Manaus'],
  art: ['America/Argentina/Buenos_Aires'],
  clt: ['America/Santiago'],
  uyt: ['America/Montevideo'],
  pyt: ['America/Asuncion'],
  cot: ['America/Bogota'],
  pet: ['America/Lima'],
  vet: ['America/Caracas'],
  bot: ['America/La_Paz'],
  ect: ['America/Guayaquil'],
  wat: ['Africa/Lagos', 'Africa/Luanda'],
  cat: ['Africa/Maputo', 'Africa/Harare'],
  eat: ['Africa/Nairobi'],
  sast: ['Africa/Johannesburg'],
  pkt: ['Asia/Karachi'],
  sgt: ['Asia/Singapore'],
  hkt: ['Asia/Hong_Kong'],
  pht: ['Asia/Manila'],
  wib: ['Asia/Jakarta'],
  jst: ['Asia/Tokyo'],
  kst: ['Asia/Seoul'],
  aest: ['Australia/Sydney', 'Australia/Melbourne', 'Australia/Brisbane'],
  aedt: ['Australia/Sydney', 'Australia/Melbourne'],
  acst: ['Australia/Adelaide', 'Australia/Darwin'],
  acdt: ['Australia/Adelaide'],
  awst: ['Australia/Perth'],
  nzst: ['Pacific/Auckland'],
  nzdt: ['Pacific/Auckland'],
};

/**
 * `GMT+1`, `UTC-3`, `utc+05:30`, `GMT+0530`, `+01:00` → the fixed offset as the API names it
 * (`UTC+1`, `UTC-3`, `UTC+5:30`); null for anything else.
 */
function fixedOffsetZone(text: string): string | null {
  const m = /^(?:UTC|GMT)?\s*([+-])\s*(\d{1,2})(?:[:.]?(\d{2}))?$/i.exec(text.trim());
  if (!m || (!/^(utc|gmt)/i.test(text.trim()) && !m[3])) return null;
  const hours = Number(m[2]);
  const minutes = Number(m[3] ?? 0);
  if (hours > 14 || minutes > 59) return null;
  if (hours === 0 && minutes === 0) return 'UTC';
  return `UTC${m[1]}${hours}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
}

/** Lower case without accents, so "sao paulo" finds "São Paulo" and "brasilia" "Brasília". */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[_/]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function zoneNames(zone: string): string {
  const parts = [zone, ALSO_KNOWN_AS[zone] ?? ''];
  for (const locale of LOCALES) {
    for (const style of ['shortGeneric', 'longGeneric'] as const) {
      try {
        const name = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: style }).formatToParts(0).find((p) => p.type === 'timeZoneName');
        if (name) parts.push(name.value);
      } catch {
        // A zone this Intl cannot name is still found by its id.
      }
    }
  }
  return fold(parts.join(' '));
}

let index: Map<string, string> | null = null;

/**
 * Every zone's searchable names. Naming 400-odd zones in three languages takes a few hundred
 * milliseconds, so it is done once, on first use (the picker calls `warmZoneIndex` on focus).
 */
function zoneIndex(): Map<string, string> {
  if (!index) index = new Map(allZones().map((z) => [z, zoneNames(z)]));
  return index;
}

/** Builds the index in small slices so focusing the picker never freezes the window. */
export function warmZoneIndex(): Promise<void> {
  if (index) return Promise.resolve();
  return new Promise((resolve) => {
    const zones = allZones();
    const built = new Map<string, string>();
    let i = 0;
    const slice = () => {
      if (index) return resolve();
      const end = Math.min(i + 40, zones.length);
      for (; i < end; i++) built.set(zones[i], zoneNames(zones[i]));
      if (i < zones.length) setTimeout(slice, 0);
      else {
        index = built;
        resolve();
      }
    };
    slice();
  });
}

/**
 * Zones matching what was typed, best first: every word must appear in the zone's names; zones
 * whose city (the id's last part) starts with the text come before the rest.
 */
export function searchZones(text: string, limit = 8): string[] {
  const q = fold(text);
  if (!q) return [];
  const known = new Set(allZones());
  const abbreviated = (ABBREVIATIONS[q] ?? []).filter((z) => known.has(z));
  const words = q.split(' ');
  const hits: Array<{ zone: string; rank: number }> = [];
  for (const [zone, names] of zoneIndex()) {
    if (abbreviated.includes(zone)) continue;
    // Words are matched from their start: "est" is not in "West Africa", "york" is in "New York".
    if (!words.every((w) => names.startsWith(w) || names.includes(` ${w}`))) continue;
    const city = fold(zone.slice(zone.lastIndexOf('/') + 1));
    const rank = fold(zone) === q ? 0 : city === q ? 1 : city.startsWith(q) ? 2 : names.includes(q) ? 3 : 4;
    hits.push({ zone, rank });
  }
  hits.sort((a, b) => a.rank - b.rank || a.zone.localeCompare(b.zone));
  // An abbreviation is its zones, then only cities named so: "est" is also a word in "hora estándar".
  const rest = abbreviated.length ? hits.filter((h) => h.rank <= 2) : hits;
  return [...abbreviated, ...rest.map((h) => h.zone)].slice(0, limit);
}

/**
 * The zone id a typed text stands for without a choice from the list: an id as the platform
 * spells it (in any case), a fixed offset such as `UTC+2` or `GMT+1` (kept as `UTC+1`), or
 * nothing typed (the default zone).
 * Anything else (a city name, half an id) is not a zone yet: null.
 */
export function exactZone(text: string): string | null {
  const v = text.trim();
  if (v === '') return '';
  const offset = fixedOffsetZone(v);
  if (offset) return isValidZone(offset) ? offset : null;
  const lower = v.toLowerCase();
  return allZones().find((z) => z.toLowerCase() === lower) ?? null;
}

/** "New York" from `America/New_York`, for the list. */
export function zoneCity(zone: string): string {
  return zone.slice(zone.lastIndexOf('/') + 1).replace(/_/g, ' ');
}

/** `GMT-5` now, beside each zone in the list. */
export function zoneOffset(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'shortOffset' }).formatToParts(Date.now()).find((p) => p.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}
