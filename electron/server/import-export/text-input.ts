/**
 * Turns the bytes of an uploaded import file (ICS or CSV) into text, or explains why it cannot.
 *
 * Calendar and spreadsheet programs write UTF-8 (sometimes with a BOM), Excel's "Unicode text" is
 * UTF-16 with a BOM, and older tools write Windows-1252. We accept the first two and refuse anything
 * else with a message that says where the first bad byte is, because silently decoding a legacy
 * encoding would import mangled names ("CafÃ©") that are hard to clean up afterwards.
 */

import { isUtf8 } from 'node:buffer';
import { FORMAT_HEAD_CHARS } from '../../../shared/import-format';

export type DecodedImportFile = { text: string } | { error: string };

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const UTF16LE_BOM = [0xff, 0xfe];
const UTF16BE_BOM = [0xfe, 0xff];
const UTF32LE_BOM = [0xff, 0xfe, 0x00, 0x00];
const UTF32BE_BOM = [0x00, 0x00, 0xfe, 0xff];

export function decodeImportFile(bytes: Uint8Array): DecodedImportFile {
  if (bytes.length === 0) return { error: 'The file is empty.' };

  // UTF-32 LE starts with the UTF-16 LE BOM, so it must be ruled out first.
  if (startsWith(bytes, UTF32LE_BOM) || startsWith(bytes, UTF32BE_BOM)) {
    return { error: 'The file is UTF-32 encoded, which is not supported. Save it as UTF-8 and import it again.' };
  }
  if (startsWith(bytes, UTF16LE_BOM)) return decodeUtf16(bytes.subarray(2), 'le');
  if (startsWith(bytes, UTF16BE_BOM)) return decodeUtf16(bytes.subarray(2), 'be');

  const bomLength = startsWith(bytes, UTF8_BOM) ? UTF8_BOM.length : 0;
  const body = bytes.subarray(bomLength);

  const nul = body.indexOf(0);
  if (nul >= 0) {
    const offset = nul + bomLength;
    return {
      error:
        `The file contains a NUL byte at line ${lineOfByte(bytes, offset)} (byte offset ${offset}): ` +
        'it is a binary file or UTF-16 text without a byte-order mark. Save it as UTF-8 text and import it again.',
    };
  }

  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body) };
  } catch {
    const bad = firstInvalidUtf8(body);
    const offset = (bad?.offset ?? 0) + bomLength;
    const where = `line ${lineOfByte(bytes, offset)}, byte offset ${offset}`;
    if (bad?.truncated) {
      return { error: `The file ends in the middle of a UTF-8 character (${where}): it looks truncated.` };
    }
    const byte = bytes[offset]?.toString(16).toUpperCase().padStart(2, '0') ?? '??';
    return {
      error:
        `The file is not valid UTF-8: byte 0x${byte} at ${where} is not part of a UTF-8 character. ` +
        'It was probably saved in another encoding (such as Windows-1252 or ISO-8859-1). ' +
        'Save it as UTF-8 and import it again.',
    };
  }
}

/**
 * The bytes of a UTF-8 file when `decodeImportFile` would decode them without a word to say (no
 * other encoding's byte order mark, no NUL, valid UTF-8): `body` without its byte order mark, which
 * `new TextDecoder('utf-8')` turns into the same text, and `head`, its first characters (enough to
 * tell its format). A large iCalendar file goes to its reading thread as bytes: decoding it there
 * spares this thread the work and the text's copy between threads.
 */
export function plainUtf8(bytes: Uint8Array): { body: Uint8Array; head: string } | undefined {
  if (bytes.length === 0 || startsWith(bytes, UTF32BE_BOM) || startsWith(bytes, UTF16LE_BOM) || startsWith(bytes, UTF16BE_BOM)) return undefined;
  const body = bytes.subarray(startsWith(bytes, UTF8_BOM) ? UTF8_BOM.length : 0);
  if (body.indexOf(0) >= 0 || !isUtf8(body)) return undefined;
  // A character is at most 4 bytes: these hold the first FORMAT_HEAD_CHARS whole.
  return { body, head: new TextDecoder('utf-8').decode(body.subarray(0, 4 * FORMAT_HEAD_CHARS + 4)) };
}

function decodeUtf16(body: Uint8Array, order: 'le' | 'be'): DecodedImportFile {
  if (body.length % 2 !== 0) {
    return { error: 'The file is UTF-16 but has an odd number of bytes: it looks truncated.' };
  }
  // Swapping to little-endian keeps us independent of whether this Node build ships 'utf-16be'.
  let units = body;
  if (order === 'be') {
    units = new Uint8Array(body.length);
    for (let i = 0; i < body.length; i += 2) {
      units[i] = body[i + 1];
      units[i + 1] = body[i];
    }
  }
  let text: string;
  try {
    text = new TextDecoder('utf-16le', { fatal: true }).decode(units);
  } catch {
    return { error: 'The file starts with a UTF-16 byte-order mark but is not valid UTF-16 text.' };
  }
  const nul = text.indexOf('\0');
  if (nul >= 0) {
    return {
      error: `The file contains a NUL character at line ${lineOfChar(text, nul)}: it is not a text file.`,
    };
  }
  return { text };
}

/** Where the first malformed UTF-8 sequence starts; `truncated` when it is cut off by the end of the data. */
function firstInvalidUtf8(b: Uint8Array): { offset: number; truncated: boolean } | undefined {
  let i = 0;
  while (i < b.length) {
    const lead = b[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    let need: number;
    // The allowed range of the second byte excludes overlong forms and UTF-16 surrogates.
    let lo = 0x80;
    let hi = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) need = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      need = 2;
      if (lead === 0xe0) lo = 0xa0;
      if (lead === 0xed) hi = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      need = 3;
      if (lead === 0xf0) lo = 0x90;
      if (lead === 0xf4) hi = 0x8f;
    } else return { offset: i, truncated: false };

    for (let k = 1; k <= need; k++) {
      if (i + k >= b.length) return { offset: i, truncated: true };
      const c = b[i + k];
      const min = k === 1 ? lo : 0x80;
      const max = k === 1 ? hi : 0xbf;
      if (c < min || c > max) return { offset: i, truncated: false };
    }
    i += need + 1;
  }
  return undefined;
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.length <= bytes.length && prefix.every((v, i) => bytes[i] === v);
}

function lineOfByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

function lineOfChar(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 0x0a) line++;
  return line;
}
