/** How the import's problems are told: messages, quoted lines, and the two ways a VEVENT fails. */

export function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\.$/, '');
}

export function snippet(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** ical.js could not parse part of the file: the whole file is then unreadable, as before. */
/** Why an event without DTSTART is not imported. */
export const NO_START = 'it has no start date (DTSTART), which every event needs';

export class Unreadable extends Error {
  /** `line`, `lineText`: the line ical.js could not read, when it is known. */
  constructor(
    readonly reason: unknown,
    readonly line?: number,
    readonly lineText?: string,
  ) {
    super('unreadable');
  }
}

/** A problem with one event (or one property of it), reported and skipped without failing the file. */
export class EventProblem extends Error {
  constructor(
    message: string,
    readonly property?: string,
  ) {
    super(message);
  }
}
