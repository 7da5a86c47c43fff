/**
 * Descriptions through iCalendar (issue 25 item 2, issue 27 defect 5.9): DESCRIPTION is the text
 * the user sees, it comes back the same, and nothing drifts however many rounds it makes through
 * another client (which keeps DESCRIPTION and may drop everything else).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportIcs } from '../../../electron/server/icalendar/export';
import { parseIcs } from '../../../electron/server/icalendar/import';
import { renderContent } from '../../../electron/server/serialize/content';
import { event } from '../import-export/records';
import { descriptionOf as descriptionOrNull, firstVevent } from '../../helpers/ics';

/** What the API shows of stored content (the description field of a record). */
const shown = (content: string) => renderContent(content);

// UTC times: no VTIMEZONE to build or read, so that the property tests run hundreds of rounds quickly.
function exportedWith(description: string): string {
  return exportIcs([event({ id: 7, title: 'Talk', start_date: '2031-05-06 18:00:00', end_date: '2031-05-06 19:00:00', timezone: 'UTC', description })], { uidHost: 'almanac.test' });
}

const vevent = firstVevent;
/** A text without DESCRIPTION shows the user an empty one. */
const descriptionOf = (text: string) => descriptionOrNull(text) ?? '';

/** The stored content an import makes of a text. */
function imported(text: string): string {
  const result = parseIcs(text, { siteZone: 'UTC' });
  expect(result.errors).toEqual([]);
  return result.events[0].body.description ?? '';
}

/** Another client's copy: only the standard properties of the VEVENT kept (khal, a phone). */
function throughPlainClient(text: string): string {
  return text
    .split(/\r\n(?![ \t])/)
    .filter((l) => !/^X-/i.test(l))
    .join('\r\n');
}

/** A file a client writes with this DESCRIPTION (escaped as RFC 5545 says). */
function clientFile(description: string): string {
  const escaped = description.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r\n|\r|\n/g, '\\n');
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//pimutils//khal//EN', 'BEGIN:VEVENT', 'UID:k-1@example.org', 'DTSTAMP:20310101T000000Z',
    'DTSTART:20310506T180000Z', 'DTEND:20310506T190000Z', 'SUMMARY:Talk', `DESCRIPTION:${escaped}`, 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
}

describe('DESCRIPTION on export', () => {
  it('a single line break stays single and paragraphs are one blank line apart', () => {
    const typed = 'First line\nSecond line\n\nNew paragraph';
    // As the API stores and shows what the editor sent.
    expect(descriptionOf(exportedWith(shown(typed)))).toBe(typed);
  });

  it('markup becomes its text; the HTML goes in X-ALT-DESC', () => {
    const text = exportedWith('<p>Bring <b>food</b> &amp; drinks.</p>\n<ul><li>Bread</li><li>Wine</li></ul>');
    expect(descriptionOf(text)).toBe('Bring food & drinks.\n\n• Bread\n• Wine');
    expect(vevent(text).getFirstPropertyValue('x-alt-desc')).toContain('<b>food</b>');
  });

  it('source line breaks inside HTML are not text', () => {
    expect(descriptionOf(exportedWith('<div>one\ntwo</div>'))).toBe('one two');
  });
});

describe('DESCRIPTION from another client', () => {
  it('plain text that looks like HTML is kept literally and goes out again unchanged', () => {
    const typed = 'Use <b> for bold & <i> for italics; 3 < 4 > 2\nDone.';
    const content = imported(clientFile(typed));
    expect(content).not.toContain('<b>');
    expect(descriptionOf(exportedWith(shown(content)))).toBe(typed);
  });
});

/** Text as a person types it: lines of words, with some of the characters that need care. */
const line = fc
  .array(fc.constantFrom('a', 'Z', 'é', '😀', ' ', '<', '>', '&', ';', ',', '\\', '"', "'", 'b>', '<p>', '&amp;', '\t', 'x'), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join(''))
  .filter((l) => l.trim() !== '')
  .map((l) => l.trim());
const paragraph = fc.array(line, { minLength: 1, maxLength: 4 }).map((lines) => lines.join('\n'));
const typedText = fc.array(paragraph, { minLength: 1, maxLength: 4 }).map((ps) => ps.join('\n\n'));

describe('round trips (property)', () => {
  it('text typed in another client → Almanac → server → that client → Almanac: the same text, every round', () => {
    fc.assert(
      fc.property(typedText, (typed) => {
        let content = imported(clientFile(typed));
        for (let round = 0; round < 3; round++) {
          const file = exportedWith(shown(content));
          expect(descriptionOf(file)).toBe(typed);
          content = imported(throughPlainClient(file));
        }
      }),
      { numRuns: 100 },
    );
  });

  it("text typed in Almanac's editor (no markup) goes out as typed and comes back the same", () => {
    const plainLine = line.filter((l) => !/[<>&]/.test(l));
    const plainText = fc.array(fc.array(plainLine, { minLength: 1, maxLength: 4 }).map((ls) => ls.join('\n')), { minLength: 1, maxLength: 4 }).map((ps) => ps.join('\n\n'));
    fc.assert(
      fc.property(plainText, (typed) => {
        const file = exportedWith(shown(typed));
        expect(descriptionOf(file)).toBe(typed);
        expect(descriptionOf(exportedWith(shown(imported(throughPlainClient(file)))))).toBe(typed);
      }),
      { numRuns: 150 },
    );
  });

  it('any text another client writes settles after one round and never drifts after', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\n', '<', '&', 'b', '>', ';', '\\', 'é', '\t', '\r') }), (text) => {
        const first = descriptionOf(exportedWith(shown(imported(clientFile(text)))));
        const second = descriptionOf(exportedWith(shown(imported(clientFile(first)))));
        expect(second).toBe(first);
        // Only whitespace may have been tidied.
        expect(first.replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
      }),
      { numRuns: 200 },
    );
  });

  it('HTML Almanac wrote keeps its markup across rounds through a client that keeps X- properties', () => {
    const html = '<p>Bring <b>food</b>.<br />\nAnd <a href="https://example.org/x?a=1&amp;b=2">the map</a>.</p>\n<p>Thanks!</p>';
    let content = html;
    for (let round = 0; round < 3; round++) content = imported(exportedWith(shown(content)));
    expect(content).toBe(html);
    expect(descriptionOf(exportedWith(html))).toBe('Bring food.\nAnd the map.\n\nThanks!');
  });
});
