/**
 * Web addresses in an event's plain text (its description, its place), so the details card can
 * make them links, and the video call among them for a "Join" button. Only http(s) and mail
 * addresses become links: they open outside the app (a new tab; in the desktop app the main
 * process hands them to the system browser), never in the calendar's own window.
 */

/** `https://…`, `http://…` or `www.…`, up to a space, a quote or closing punctuation. */
const WEB = /\b(?:https?:\/\/|www\.)[^\s<>"'`]+[^\s<>"'`.,;:!?)\]}]/gi;
const MAIL = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g;

export type TextPart = string | { href: string; text: string };

/** `Call https://meet.example/abc now` → ['Call ', {href, text}, ' now']. */
export function linkParts(text: string): TextPart[] {
  const found: Array<{ start: number; end: number; href: string }> = [];
  for (const m of text.matchAll(WEB)) {
    const raw = m[0];
    found.push({ start: m.index!, end: m.index! + raw.length, href: /^www\./i.test(raw) ? `https://${raw}` : raw });
  }
  for (const m of text.matchAll(MAIL)) {
    const start = m.index!;
    if (found.some((f) => start < f.end && start + m[0].length > f.start)) continue; // inside a web address
    found.push({ start, end: start + m[0].length, href: `mailto:${m[0]}` });
  }
  found.sort((a, b) => a.start - b.start);
  const parts: TextPart[] = [];
  let at = 0;
  for (const f of found) {
    if (f.start < at) continue;
    if (f.start > at) parts.push(text.slice(at, f.start));
    parts.push({ href: f.href, text: text.slice(f.start, f.end) });
    at = f.end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** Hosts of the video-call services people send invitations from. */
const CALL_HOSTS = [
  /(^|\.)meet\.google\.com$/,
  /(^|\.)zoom\.us$/,
  /(^|\.)zoom\.com$/,
  /(^|\.)teams\.microsoft\.com$/,
  /(^|\.)teams\.live\.com$/,
  /(^|\.)webex\.com$/,
  /(^|\.)whereby\.com$/,
  /^meet\.jit\.si$/,
  /(^|\.)gotomeeting\.com$/,
  /(^|\.)chime\.aws$/,
];

/** The first video-call address in these texts (a Meet, Zoom, Teams, Webex, Jitsi… link), or null. */
export function videoCallLink(texts: Array<string | null | undefined>): string | null {
  for (const text of texts) {
    if (!text) continue;
    for (const part of linkParts(text)) {
      if (typeof part === 'string' || !/^https?:/i.test(part.href)) continue;
      try {
        const host = new URL(part.href).hostname.toLowerCase();
        if (CALL_HOSTS.some((re) => re.test(host))) return part.href;
      } catch {
        // not an address after all
      }
    }
  }
  return null;
}
