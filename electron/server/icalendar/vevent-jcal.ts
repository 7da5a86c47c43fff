/** One VEVENT's text read with ical.js on its own, as jCal, and where its properties are for messages. */
import ICAL from 'ical.js';
import { nameOf, parseContentLine, unfoldLines, type ContentLine } from './lines';
import { Unreadable, snippet } from './problems';
import type { VeventBlock, VeventInfo } from './scan';

type IcalComponent = InstanceType<typeof ICAL.Component>;

/**
 * One VEVENT read with ical.js on its own, as a child of its calendar (whose VTIMEZONEs its times
 * are read with, as when the whole file was parsed at once).
 */
export function readBlock(
  text: string,
  block: VeventBlock,
  root: IcalComponent,
): { component: IcalComponent; info: VeventInfo; notes: Array<{ line: number; message: string }> } {
  const notes: Array<{ line: number; message: string }> = [];
  const jcal = veventJcal(text, block, notes);
  return { component: new ICAL.Component(jcal as never, root), info: new LazyInfo(text, block), notes };
}

/** ical.js's parser internals, for lines without parameters (see `veventJcal`). */
interface IcalDesignSet {
  property: Record<string, { multiValue?: string; structuredValue?: string; detectType?(value: string): string; defaultType?: string }>;
  propertyGroups?: boolean;
}
const icalParse = ICAL.parse as unknown as {
  _parseValue(value: string, type: string, design: IcalDesignSet, structured: boolean | string): unknown;
  _parseMultiValue(value: string, delim: string, type: string, result: unknown[], inner: string | null, design: IcalDesignSet, structured: boolean | string): unknown;
  property(line: string, design: IcalDesignSet): unknown[];
};

/** A block `veventJcal` leaves to ICAL.parse whole (see there). */
class UnusualBlock extends Error {}

/**
 * A VEVENT's jCal, as `ICAL.parse` makes it from the block's text: BEGIN and END nest components,
 * every other line is a property. Most lines have no parameters (`NAME:value`); those are turned
 * into jCal here with ical.js's own value parsers, following its line parser step by step, which
 * took a third of reading a file mostly in its generic work (parameters, groups, vCard). Lines with
 * parameters go to ical.js's line parser, and anything it would treat differently from a calendar
 * (vCard components, grouped names) to `ICAL.parse` with the whole block, as before.
 */
function veventJcal(text: string, block: VeventBlock, notes: Array<{ line: number; message: string }>): unknown[] {
  const lines: string[] = [];
  const numbers: number[] = [];
  unfoldLines(text, block.start, block.end, block.line, (s, line) => {
    const fixed = readableRule(s, line, notes);
    if (fixed === null) return;
    lines.push(fixed);
    numbers.push(line);
  });
  try {
    try {
      return jcalOfLines(lines);
    } catch (err) {
      if (!(err instanceof UnusualBlock)) throw err;
      return ICAL.parse(lines.join('\r\n') + '\r\n') as unknown[];
    }
  } catch (err) {
    throw unreadableLine(lines, numbers) ?? new Unreadable(err);
  }
}

/** ical.js does not say where it failed: the first line it cannot read on its own is the one. */
function unreadableLine(lines: string[], numbers: number[]): Unreadable | undefined {
  const design = ICAL.design.icalendar as unknown as IcalDesignSet;
  for (let i = 0; i < lines.length; i++) {
    const name = nameOf(lines[i]);
    if (name === 'BEGIN' || name === 'END') continue;
    try {
      icalParse.property(lines[i], design);
    } catch (err) {
      return new Unreadable(err, numbers[i], lines[i]);
    }
  }
  return undefined;
}

/** The file's first VEVENT line ical.js cannot read, whichever VEVENT was being read when one failed. */
export function firstUnreadableLine(text: string, blocks: readonly VeventBlock[]): Unreadable | undefined {
  for (const block of blocks) {
    const lines: string[] = [];
    const numbers: number[] = [];
    unfoldLines(text, block.start, block.end, block.line, (s, line) => {
      const fixed = readableRule(s, line, []);
      if (fixed === null) return;
      lines.push(fixed);
      numbers.push(line);
    });
    const found = unreadableLine(lines, numbers);
    if (found) return found;
  }
  return undefined;
}

/**
 * A rule line as ical.js can read it, or null to leave it out (with a note saying so): RFC 7529
 * rules in another calendar system (`RSCALE=HEBREW`) cannot be expanded, and ical.js refused the
 * whole file for them; spaces inside a rule (`BYDAY=MO, TU`) are dropped.
 */
function readableRule(s: string, line: number, notes: Array<{ line: number; message: string }>): string | null {
  // Asked of every line read: most go by on their first letter, without a copy of their name.
  const first = s.charCodeAt(0) | 0x20;
  if (first !== 0x72 && first !== 0x65) return s;
  const name = nameOf(s);
  if (name !== 'RRULE' && name !== 'EXRULE') return s;
  const parsed = parseContentLine(s);
  if (typeof parsed === 'string') return s;
  let value = parsed.value;
  const head = s.slice(0, s.length - value.length);
  if (/\s/.test(value)) {
    value = value.replace(/\s+/g, '');
    notes.push({ line, message: `Line ${line}: the spaces in "${snippet(s)}" were removed to read the rule.` });
  }
  const parts = value.split(';');
  const rscale = parts.find((p) => /^RSCALE=/i.test(p))?.slice(7).toUpperCase();
  if (rscale === undefined) return head + value;
  if (rscale !== 'GREGORIAN') {
    notes.push({
      line,
      message:
        `Line ${line}: "${snippet(s)}" repeats the event in the ${rscale.charAt(0)}${rscale.slice(1).toLowerCase()} calendar (RSCALE, RFC 7529), ` +
        'which Almanac cannot follow; only its first occurrence was imported.',
    });
    return null;
  }
  const skip = parts.find((p) => /^SKIP=/i.test(p))?.slice(5).toUpperCase();
  if (skip && skip !== 'OMIT') {
    notes.push({ line, message: `Line ${line}: SKIP=${skip} in "${snippet(s)}" was ignored: occurrences on dates that do not exist are left out.` });
  }
  return head + parts.filter((p) => !/^(RSCALE|SKIP)=/i.test(p)).join(';');
}

/** A VEVENT's unfolded lines as jCal (throws UnusualBlock for what only ICAL.parse may read); exported for its tests. */
export function jcalOfLines(lines: string[]): unknown[] {
  const stack: unknown[][] = [];
  let component: unknown[] | undefined;
  let first: unknown[] | undefined;
  let design: IcalDesignSet | undefined;
  for (let i = 0; i < lines.length; i++) {
    // ICAL.parse trims the last line of its input.
    const s = i === lines.length - 1 ? lines[i].trim() : lines[i];
    if (!s) continue;
    const valuePos = s.indexOf(':');
    // No ";" before the ":" (looking back from it, not through the whole value).
    const plain = valuePos !== -1 && s.lastIndexOf(';', valuePos) === -1;
    const name = plain ? s.slice(0, valuePos).toLowerCase() : '';
    if (name === 'begin') {
      const child: unknown[] = [s.slice(valuePos + 1).toLowerCase(), [], []];
      if (child[0] === 'vcard') throw new UnusualBlock();
      if (component) {
        (component[2] as unknown[][]).push(child);
        stack.push(component);
      } else if (first) throw new UnusualBlock();
      else first = child;
      component = child;
      design ??= ICAL.design.getDesignSet(child[0] as string) as unknown as IcalDesignSet;
    } else if (name === 'end') {
      component = stack.pop();
    } else {
      if (!component || !design) throw new UnusualBlock();
      if (!plain || (design.propertyGroups && name.includes('.'))) {
        (component[1] as unknown[]).push(icalParse.property(s, design));
      } else {
        (component[1] as unknown[]).push(plainProperty(name, s.slice(valuePos + 1), design));
      }
    }
  }
  if (stack.length || component || !first) throw new UnusualBlock();
  return first;
}

/** What ical.js's `parse._handleContentLine` makes of `name:value` (no parameters). */
function plainProperty(name: string, value: string, design: IcalDesignSet): unknown[] {
  let multiValue: string | false = false;
  let structuredValue: string | false = false;
  let valueType: string | undefined;
  const details = name in design.property ? design.property[name] : undefined;
  if (details) {
    if ('multiValue' in details) multiValue = details.multiValue!;
    if ('structuredValue' in details) structuredValue = details.structuredValue!;
    if (value && 'detectType' in details) valueType = details.detectType!(value);
  }
  valueType ||= details ? details.defaultType! : 'unknown';
  const params = {};
  if (multiValue && structuredValue) {
    return [name, params, valueType, icalParse._parseMultiValue(value, structuredValue, valueType, [], multiValue, design, structuredValue)];
  }
  if (multiValue) {
    const result: unknown[] = [name, params, valueType];
    icalParse._parseMultiValue(value, multiValue, valueType, result, null, design, false);
    return result;
  }
  if (structuredValue) {
    return [name, params, valueType, icalParse._parseMultiValue(value, structuredValue, valueType, [], null, design, structuredValue)];
  }
  return [name, params, valueType, icalParse._parseValue(value, valueType, design, false)];
}

/**
 * Where each property of a VEVENT is, worked out only when a message needs it: most events need
 * none, and finding them for every event cost a tenth of reading the file.
 */
class LazyInfo implements VeventInfo {
  readonly line: number;
  private found?: { propLines: Map<string, number>; propText: Map<string, string>; allLines: Map<string, Array<{ line: number; text: string }>> };

  constructor(
    private readonly text: string,
    private readonly block: VeventBlock,
  ) {
    this.line = block.line;
  }

  get propLines(): Map<string, number> {
    return (this.found ??= this.find()).propLines;
  }

  get propText(): Map<string, string> {
    return (this.found ??= this.find()).propText;
  }

  get allLines(): Map<string, Array<{ line: number; text: string }>> {
    return (this.found ??= this.find()).allLines;
  }

  private find() {
    const propLines = new Map<string, number>();
    const propText = new Map<string, string>();
    const allLines = new Map<string, Array<{ line: number; text: string }>>();
    const open: string[] = [];
    unfoldLines(this.text, this.block.start, this.block.end, this.block.line, (s, line) => {
      const name = nameOf(s);
      if (name === 'BEGIN') open.push((parseContentLine(s) as ContentLine).value.trim().toUpperCase());
      else if (name === 'END') open.pop();
      else if (open[open.length - 1] === 'VEVENT') {
        if (!propLines.has(name)) {
          propLines.set(name, line);
          propText.set(name, s);
          allLines.set(name, []);
        }
        allLines.get(name)!.push({ line, text: s });
      }
    });
    return { propLines, propText, allLines };
  }
}
