/**
 * Reading iCalendar text in tests, one way for all of them: `unfold` joins folded lines (RFC 5545
 * §3.1: a line break then a space or tab; a bare LF too, as some servers and files have it), and
 * `descriptionOf` reads the first VEVENT's DESCRIPTION as ical.js unescapes it.
 */
import ICAL from 'ical.js';

export const unfold = (text: string): string => text.replace(/\r?\n[ \t]/g, '');

/** The first VEVENT of a text. */
export function firstVevent(text: string): ICAL.Component {
  const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT in the text');
  return vevent;
}

/** DESCRIPTION of the first VEVENT of a text, unescaped; null when it has none. */
export function descriptionOf(text: string): string | null {
  return (firstVevent(text).getFirstPropertyValue('description') as string | null) ?? null;
}
