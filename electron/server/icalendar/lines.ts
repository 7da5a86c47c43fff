/** Content lines: unfolding the physical lines of a file, and splitting one into name, parameters and value. */

export interface ContentLine {
  name: string;
  params: Map<string, string[]>;
  value: string;
}

/**
 * The logical lines of `text[from, to)`: physical lines (split at CRLF, LF or CR) unfolded (a line
 * starting with a space or tab continues the previous one), blank lines skipped. `onLine` gets each
 * with the number of its first physical line (the first one in the range is `firstLine`) and the
 * offset where the next logical line starts (or `to`). Returns the number of physical lines; a
 * final line break does not start another line. Walks the text without copying it.
 */
export function unfoldLines(
  text: string,
  from: number,
  to: number,
  firstLine: number,
  onLine: (s: string, line: number, next: number) => void,
  onStray?: (line: number) => void,
): number {
  let pending: string | undefined;
  let pendingLine = 0;
  let line = firstLine - 1;
  let cr = -2;
  let lf = -2;
  let at = from;
  while (at < to) {
    line++;
    if (cr !== -1 && cr < at) cr = text.indexOf('\r', at);
    if (lf !== -1 && lf < at) lf = text.indexOf('\n', at);
    let end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
    let next: number;
    if (end === -1 || end >= to) {
      end = to;
      next = to;
    } else {
      next = end + (end === cr && lf === end + 1 ? 2 : 1);
    }
    const first = text.charCodeAt(at);
    if (first === 32 || first === 9) {
      if (pending !== undefined) pending += text.slice(at + 1, end);
      else onStray?.(line);
    } else {
      const raw = text.slice(at, end);
      if (raw.trim() !== '') {
        if (pending !== undefined) onLine(pending, pendingLine, at);
        pending = raw;
        pendingLine = line;
      }
    }
    at = next;
  }
  if (pending !== undefined) onLine(pending, pendingLine, to);
  return line - firstLine + 1;
}

/**
 * Where the ":" of a `NAME:value` line is (a name, no parameters), or -1 for any other line. Most
 * lines are so; they need none of the parameter parsing (nor a regex: the scan asks this of every
 * line of the file).
 */
export function plainNameEnd(s: string): number {
  const end = nameCharsEnd(s, 0);
  return end > 0 && s.charCodeAt(end) === COLON ? end : -1;
}

const SEMICOLON = 59;
const COLON = 58;
const COMMA = 44;
const QUOTE = 34;
const EQUALS = 61;

/** Where the run of name characters (`A-Z a-z 0-9 -`) that starts at `from` ends. */
function nameCharsEnd(s: string, from: number): number {
  let end = from;
  for (; end < s.length; end++) {
    const c = s.charCodeAt(end);
    if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45)) break;
  }
  return end;
}

/** A property name in upper case: names nearly always are already, and `toUpperCase` copies even then. */
export function upperName(name: string): string {
  for (let i = 0; i < name.length; i++) {
    if (name.charCodeAt(i) >= 97) return name.toUpperCase();
  }
  return name;
}

/** Splits `NAME;PARAM=a,"b";P2=c:value`; returns a description of the problem if it is malformed. */
export const NO_PARAMETERS = new Map<string, string[]>();

export function parseContentLine(s: string): ContentLine | string {
  const end = plainNameEnd(s);
  if (end > 0) return { name: s.slice(0, end), params: NO_PARAMETERS, value: s.slice(end + 1) };
  const nameEnd = nameCharsEnd(s, 0);
  if (nameEnd === 0) return s.includes(':') ? 'it does not start with a property name' : 'no ":" separator; a folded line must start with a space';
  const name = s.slice(0, nameEnd);
  const params = new Map<string, string[]>();
  // Walked by character code: the scan asks this of every line with parameters in the file.
  let i = nameEnd;
  while (s.charCodeAt(i) === SEMICOLON) {
    const paramEnd = nameCharsEnd(s, i + 1);
    if (paramEnd === i + 1 || s.charCodeAt(paramEnd) !== EQUALS) return `malformed parameter after "${name}"`;
    const paramName = s.slice(i + 1, paramEnd);
    i = paramEnd + 1;
    const values: string[] = [];
    for (;;) {
      if (s.charCodeAt(i) === QUOTE) {
        const close = s.indexOf('"', i + 1);
        if (close < 0) return `unterminated quoted value of parameter ${paramName}`;
        values.push(s.slice(i + 1, close));
        i = close + 1;
      } else {
        let j = i;
        for (; j < s.length; j++) {
          const c = s.charCodeAt(j);
          if (c === SEMICOLON || c === COLON || c === COMMA || c === QUOTE) break;
        }
        values.push(s.slice(i, j));
        i = j;
      }
      if (s.charCodeAt(i) !== COMMA) break;
      i++;
    }
    params.set(upperName(paramName), values);
  }
  if (s.charCodeAt(i) !== COLON) {
    return s.includes(':')
      ? `expected ":" after "${s.slice(0, i)}"`
      : 'no ":" separator; a folded line must start with a space';
  }
  return { name, params, value: s.slice(i + 1) };
}

/** The upper-case name of a line that the scan found valid: up to its first `;` or `:`. */
export function nameOf(s: string): string {
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 59 || c === 58) break;
  }
  return s.slice(0, i).toUpperCase();
}
