/** The VEVENTs of a scanned file as entries: their UID, and their ical.js reading while it is needed. */
import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import type { IcsImportResult } from './import-types';
import { EventProblem, messageOf, snippet } from './problems';
import { hasProp, stringProperty } from './props';
import type { Scan, VeventBlock, VeventInfo } from './scan';
import { readBlock } from './vevent-jcal';
import { apiZone } from './zones';

type IcalComponent = InstanceType<typeof ICAL.Component>;

export interface Entry {
  block: VeventBlock;
  /** Read when the event's turn comes (see `load`), and dropped after. */
  component: IcalComponent;
  info: VeventInfo;
  uid: string;
  /** It has a RECURRENCE-ID: an occurrence of a series. */
  override: boolean;
  /** X-WR-TIMEZONE of the calendar the event is in. */
  calendarZone?: string;
  root: IcalComponent;
  text: string;
}

const NOT_READ = null as unknown as IcalComponent;

export function collectEntries(text: string, roots: IcalComponent[], scan: Scan, result: IcsImportResult): Entry[] {
  const entries: Entry[] = [];
  const zoneOfRoot = roots.map((root) => apiZone(stringProperty(root, 'x-wr-timezone')));
  const unescapeUid = (ICAL.design.icalendar.value as Record<string, { fromICAL(s: string): string }>).text.fromICAL;
  for (const block of scan.vevents) {
    const root = roots[block.root];
    const entry: Entry = {
      block, component: NOT_READ, info: unread(block),
      uid: '', override: block.recurrence, calendarZone: zoneOfRoot[block.root], root, text,
    };
    let uid = block.uidRaw ? unescapeUid(block.uidRaw).trim() : undefined;
    if (!uid) {
      // A UID with parameters, an empty one or none: what ical.js reads decides.
      load(entry);
      entry.override = hasProp(entry.component, 'recurrence-id');
      uid = stringProperty(entry.component, 'uid')?.trim();
    }
    if (!uid) {
      uid = syntheticUid(entry.component);
      result.warnings.push({
        line: block.line,
        message:
          `The event at line ${block.line} has no UID; a re-import will recognise it only if its title, ` +
          'times and location are unchanged.',
      });
    }
    entry.uid = uid;
    entries.push(entry);
  }
  return entries;
}

/** Reads an entry's VEVENT with ical.js, if not done yet. */
export function load(entry: Entry): void {
  if (entry.component !== NOT_READ) return;
  const { component, info } = readBlock(entry.text, entry.block, entry.root);
  entry.component = component;
  entry.info = info;
}

/** Forgets an entry's ical.js reading once its events are made. */
export function unload(entry: Entry): void {
  entry.component = NOT_READ;
  entry.info = unread(entry.block);
}

const NO_LINES = new Map<string, never>();

/** What is known of a VEVENT's lines before it is read: where it starts. */
function unread(block: VeventBlock): VeventInfo {
  return { line: block.line, propLines: NO_LINES, propText: NO_LINES };
}

/** Stable across re-imports of the same content, so that even UID-less events are matched. */
function syntheticUid(component: IcalComponent): string {
  const raw = ['summary', 'dtstart', 'dtend', 'location']
    .map((name) => component.getFirstProperty(name)?.toICALString() ?? '')
    .join('\n');
  return `almanac-import-${createHash('sha256').update(raw).digest('hex').slice(0, 32)}@local`;
}

/**
 * Reads a value, turning ical.js's parse errors (thrown lazily, on first access) into an
 * EventProblem that names the property and so the line.
 */
export function property<T>(entry: Entry, name: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof EventProblem) throw err;
    const written = entry.info.propText.get(name);
    // ical.js quotes the value as it half-parsed it, which only confuses; the line says it better.
    const reason = messageOf(err).replace(/:\s*".*"$/, '');
    throw new EventProblem(`${written ? `"${snippet(written)}"` : name} could not be read (${reason})`, name);
  }
}
