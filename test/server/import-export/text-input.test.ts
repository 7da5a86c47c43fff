import { describe, expect, it } from 'vitest';
import { decodeImportFile, plainUtf8 } from '../../../electron/server/import-export/text-input';

const utf8 = (s: string) => new TextEncoder().encode(s);
const bytes = (...parts: (number[] | Uint8Array)[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

function utf16(s: string, order: 'le' | 'be'): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    const pair = [unit & 0xff, unit >> 8];
    out.push(...(order === 'le' ? pair : pair.reverse()));
  }
  return out;
}

describe('decodeImportFile', () => {
  it('passes UTF-8 through and strips a UTF-8 byte-order mark', () => {
    expect(decodeImportFile(utf8('Praça,Zürich\n'))).toEqual({ text: 'Praça,Zürich\n' });
    expect(decodeImportFile(bytes([0xef, 0xbb, 0xbf], utf8('BEGIN:VCALENDAR')))).toEqual({ text: 'BEGIN:VCALENDAR' });
  });

  it('decodes UTF-16 with a little- or big-endian byte-order mark (Excel "Unicode text")', () => {
    const text = 'Event Name\tVenue\r\nFête,Café 🎉\r\n';
    expect(decodeImportFile(bytes([0xff, 0xfe], utf16(text, 'le')))).toEqual({ text });
    expect(decodeImportFile(bytes([0xfe, 0xff], utf16(text, 'be')))).toEqual({ text });
  });

  it('refuses Windows-1252 text, naming the line and byte offset', () => {
    // "Caf\xe9" on line 2: 0xE9 is é in Windows-1252 but cannot start a UTF-8 sequence here.
    const result = decodeImportFile(bytes(utf8('Venue Name\nCaf'), [0xe9], utf8('\n')));
    expect(result).toEqual({ error: expect.stringContaining('byte 0xE9 at line 2, byte offset 14') });
    expect('error' in result && result.error).toMatch(/not valid UTF-8.*Windows-1252/s);
  });

  it('reports the offset in the file when a UTF-8 BOM precedes the bad byte', () => {
    expect(decodeImportFile(bytes([0xef, 0xbb, 0xbf], utf8('ab'), [0xc3, 0x28]))).toEqual({
      error: expect.stringContaining('byte 0xC3 at line 1, byte offset 5'),
    });
  });

  it('refuses overlong forms and encoded surrogates, which TextDecoder also rejects', () => {
    expect(decodeImportFile(bytes(utf8('x'), [0xc0, 0xaf]))).toEqual({ error: expect.stringContaining('offset 1') });
    expect(decodeImportFile(bytes(utf8('xy'), [0xed, 0xa0, 0x80]))).toEqual({ error: expect.stringContaining('offset 2') });
  });

  it('recognises a file cut in the middle of a character as truncated', () => {
    const cut = utf8('BEGIN:VCALENDAR\r\nSUMMARY:Caf\u00e9').slice(0, -1);
    expect(decodeImportFile(cut)).toEqual({ error: expect.stringMatching(/ends in the middle of a UTF-8 character \(line 2.*truncated/) });
  });

  it('refuses NUL bytes (binary files, UTF-16 without a byte-order mark)', () => {
    const result = decodeImportFile(Uint8Array.from(utf16('BEGIN:VCALENDAR\nX', 'le')));
    expect(result).toEqual({ error: expect.stringContaining('NUL byte at line 1 (byte offset 1)') });
    expect(decodeImportFile(bytes(utf8('a\nb\n'), [0]))).toEqual({ error: expect.stringContaining('line 3') });
  });

  it('refuses empty, UTF-32 and malformed UTF-16 files', () => {
    expect(decodeImportFile(new Uint8Array())).toEqual({ error: 'The file is empty.' });
    expect(decodeImportFile(bytes([0xff, 0xfe, 0, 0], [0x41, 0, 0, 0]))).toEqual({ error: expect.stringContaining('UTF-32') });
    expect(decodeImportFile(bytes([0xff, 0xfe], [0x41, 0, 0x42]))).toEqual({ error: expect.stringContaining('odd number of bytes') });
    // A lone high surrogate.
    expect(decodeImportFile(bytes([0xff, 0xfe], [0x00, 0xd8, 0x41, 0x00]))).toEqual({ error: expect.stringContaining('not valid UTF-16') });
  });
});

describe('plainUtf8 (a large iCalendar file handed to its reading thread as bytes)', () => {
  const BOM = [0xef, 0xbb, 0xbf];

  it.each([
    ['plain UTF-8', utf8('BEGIN:VCALENDAR\r\nSUMMARY:Música € 🎻\r\n')],
    ['UTF-8 with a byte order mark', bytes(BOM, utf8('BEGIN:VCALENDAR\r\n'))],
    ['two byte order marks', bytes(BOM, BOM, utf8('BEGIN:VCALENDAR\r\n'))],
    ['a first line cut after its 2,048th byte', utf8(' '.repeat(2046) + 'é' + 'BEGIN:VCALENDAR')],
  ])('gives bytes that decode to the text decodeImportFile gives, for %s', (_name, input) => {
    const plain = plainUtf8(input)!;
    expect(plain).toBeDefined();
    const decoded = decodeImportFile(input) as { text: string };
    expect(new TextDecoder('utf-8').decode(plain.body)).toBe(decoded.text);
    expect(decoded.text.startsWith(plain.head.slice(0, 512))).toBe(true);
  });

  it.each([
    ['UTF-16', bytes([0xff, 0xfe], utf16('BEGIN:VCALENDAR', 'le'))],
    ['a NUL byte', bytes(utf8('BEGIN:VCALENDAR'), [0], utf8('x'))],
    ['Windows-1252', bytes(utf8('SUMMARY:Caf'), [0xe9])],
    ['nothing', new Uint8Array(0)],
  ])('leaves %s to decodeImportFile, which words what is wrong or decodes it', (_name, input) => {
    expect(plainUtf8(input)).toBeUndefined();
  });
});
