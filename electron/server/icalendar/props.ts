/** Reading a VEVENT's properties straight from ical.js's jCal: values, texts, lists, parameters. */
import ICAL from 'ical.js';
import { splitTextList, unescapeText } from './text';

type IcalComponent = InstanceType<typeof ICAL.Component>;
type IcalProperty = InstanceType<typeof ICAL.Property>;

/**
 * A property read straight from ical.js's parse result (jCal). ical.js's own Property objects,
 * made on first access and kept by the component, cost more than the reading itself across
 * thousands of events; values that ical.js turns into objects (times, durations, rules) still go
 * through one, so every value is exactly what `ICAL.Property` would give.
 */
export class Prop {
  private real?: IcalProperty;
  constructor(
    private readonly jCal: unknown[],
    private readonly parent: IcalComponent,
    private readonly decorated: boolean,
  ) {}
  get type(): string {
    return this.jCal[2] as string;
  }
  getParameter(name: string): unknown {
    return (this.jCal[1] as Record<string, unknown>)[name];
  }
  getFirstValue(): unknown {
    if (this.decorated) return this.property().getFirstValue();
    return this.jCal.length > 3 ? this.jCal[3] : null;
  }
  getValues(): unknown[] {
    if (this.decorated) return this.property().getValues();
    return this.jCal.slice(3);
  }
  private property(): IcalProperty {
    return (this.real ??= new ICAL.Property(this.jCal as never, this.parent));
  }
}

function jcalProps(c: IcalComponent): unknown[][] {
  return (c.jCal as unknown[])[1] as unknown[][];
}

function isDecorated(c: IcalComponent, type: string): boolean {
  const values = (c as unknown as { _designSet: { value: Record<string, object> } })._designSet.value;
  return type in values && 'decorate' in values[type];
}

export function firstProp(c: IcalComponent, name: string): Prop | null {
  for (const p of jcalProps(c)) if (p[0] === name) return new Prop(p, c, isDecorated(c, p[2] as string));
  return null;
}

export function allProps(c: IcalComponent, name: string): Prop[] {
  const out: Prop[] = [];
  for (const p of jcalProps(c)) if (p[0] === name) out.push(new Prop(p, c, isDecorated(c, p[2] as string)));
  return out;
}

export function firstValue(c: IcalComponent, name: string): unknown {
  return firstProp(c, name)?.getFirstValue() ?? null;
}

export function hasProp(c: IcalComponent, name: string): boolean {
  return jcalProps(c).some((p) => p[0] === name);
}

/** A property as text: ical.js unescapes known TEXT properties but leaves X- properties raw. */
export function textOf(p: Prop): string {
  const value = p.getFirstValue();
  if (value === null || value === undefined) return '';
  return p.type === 'unknown' ? unescapeText(String(value)) : String(value);
}

export function stringProperty(c: IcalComponent, name: string): string | undefined {
  const p = firstProp(c, name.toLowerCase());
  return p ? textOf(p) : undefined;
}

export function listProperty(c: IcalComponent, name: string): string[] {
  return allProps(c, name.toLowerCase()).flatMap((p) => {
    if (p.type === 'unknown') return splitTextList(String(p.getFirstValue() ?? ''));
    return p.getValues().map(String);
  }).map((s) => s.trim());
}

export function param(p: Prop, name: string): string | undefined {
  const value = p.getParameter(name.toLowerCase()) as string | string[] | undefined;
  const text = Array.isArray(value) ? value.join(',') : value;
  return text?.trim() || undefined;
}

export function booleanOf(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (/^(true|yes|1|on)$/i.test(value.trim())) return true;
  if (/^(false|no|0|off)$/i.test(value.trim())) return false;
  return undefined;
}

/** Drops empty strings and undefined values, so bodies only carry what the file said. */
export function compact<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const key in o) {
    const v = o[key];
    if (v !== undefined && (v as unknown) !== '') out[key] = v;
  }
  return out as T;
}

export function unique(items: string[]): string[] {
  return [...new Set(items)];
}
