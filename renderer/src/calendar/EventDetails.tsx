/**
 * The card a click on an event opens, as Google Calendar and GNOME Calendar have it: what, when in
 * words, where (with the address and a map link), who, categories and the description as text,
 * with Edit, Delete and Duplicate. It does not block the calendar: a double-click on the event
 * behind it opens the full editor, a press elsewhere closes it.
 */
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { Event, Venue } from '@shared/api/records';
import { Dialog } from '../components/Dialog';
import { useLocale, useViewerZone } from '../state/calendarSettings';
import { normaliseZone } from '../lib/dates';
import { scopeFor, trashEvent } from '../state/eventActions';
import { useSettings } from '../state/settings';
import { useUi } from '../state/ui';
import { describeSpan } from '../lib/format';
import { categoryColour, colourFor, decodeEntities } from './toEventInput';
import { Icon } from '../components/Icon';
import { useDescribe } from '../reminders/NotificationsControl';
import { readOnlyWords, useReadOnlySource } from '../subscriptions/readOnlyCalendars';
import { duplicateRecurrence, fromRecurrence } from '../recurrence/rule';
import { summarise } from '../recurrence/summary';
import { linkParts, videoCallLink } from '../lib/links';
import './details.css';

/** Text with its web and mail addresses as links that open outside the app. */
function LinkedText({ text }: { text: string }) {
  return (
    <>
      {linkParts(text).map((part, i) =>
        typeof part === 'string' ? (
          part
        ) : (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer" className="details-link-inline">
            {part.text}
          </a>
        ),
      )}
    </>
  );
}

/** When, on the calendar's clock and in the user's language: "Wednesday, March 12, 2031 · 9:00 AM – 10:00 AM". */
export function whenInWords(e: Event, locale: string, allDayText: string): string {
  if (e.all_day) return describeSpan({ start_date: e.start_date, end_date: e.end_date, all_day: true, timezone: 'UTC' }, locale, allDayText);
  return describeSpan({ start_date: e.utc_start_date, end_date: e.utc_end_date, all_day: false, timezone: 'UTC' }, locale, allDayText);
}

const BLOCKS = new Set(['P', 'DIV', 'LI', 'UL', 'OL', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'BLOCKQUOTE', 'TR', 'PRE']);

/**
 * A description's HTML as the text it shows (`<b>Bring</b> food` → `Bring food`), paragraphs and
 * line breaks kept. The markup is parsed as an inert document and only its text is used, so
 * nothing in it runs or loads.
 */
export function htmlAsText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  let out = '';
  const walk = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) out += (child.textContent ?? '').replace(/\s+/g, ' ');
      else if (child.nodeName === 'BR') out += '\n';
      else if (child.nodeName !== 'SCRIPT' && child.nodeName !== 'STYLE') {
        const block = BLOCKS.has(child.nodeName);
        if (block && out && !out.endsWith('\n')) out += '\n';
        walk(child);
        if (block) out += '\n';
      }
    }
  };
  walk(doc.body);
  return out
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A map of the venue: its coordinates when it has them, else a search for its address. */
export function mapLink(v: Venue): string | null {
  if (typeof v.geo_lat === 'number' && typeof v.geo_lng === 'number') {
    return `https://www.openstreetmap.org/?mlat=${v.geo_lat}&mlon=${v.geo_lng}#map=16/${v.geo_lat}/${v.geo_lng}`;
  }
  const address = [v.address, v.city, v.stateprovince || v.state || v.province, v.zip, v.country].filter(Boolean).map((s) => decodeEntities(String(s)));
  return address.length ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(address.join(', '))}` : null;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
};

const CARD_WIDTH = 380;

/** Beside the event that was clicked (right of it, or left when there is no room), kept in the window. */
function placeBeside(anchor: { top: number; left: number; right: number } | null): CSSProperties | undefined {
  if (!anchor || typeof window === 'undefined') return undefined;
  const w = window.innerWidth;
  if (w < CARD_WIDTH * 1.6) return undefined; // narrow windows: the stylesheet's bottom sheet
  const left = anchor.right + 8 + CARD_WIDTH <= w - 8 ? anchor.right + 8 : Math.max(8, anchor.left - 8 - CARD_WIDTH);
  const top = Math.max(8, Math.min(anchor.top - 16, window.innerHeight - 420));
  return { left, top, maxHeight: window.innerHeight - top - 8 };
}

export function EventDetails({ event }: { event: Event }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const close = useUi((s) => s.closeDetails);
  const anchor = useUi((s) => s.detailsAnchor);
  const title = decodeEntities(event.title);
  const venue = Array.isArray(event.venue) ? null : event.venue;
  const address = venue ? [venue.address, [venue.city, venue.stateprovince || venue.state || venue.province, venue.zip].filter(Boolean).join(', '), venue.country].filter(Boolean) : [];
  const map = venue ? mapLink(venue) : null;
  const description = event.description ? htmlAsText(event.description) : '';
  const venueName = venue ? decodeEntities(venue.venue ?? '') : '';
  // An invitation's call: a Join button, as Google Calendar has one.
  const call = videoCallLink([venueName, ...address.map((line) => decodeEntities(String(line))), description, event.website]);
  const describe = useDescribe();
  // Drawn again when the calendar's zone changes; an event kept in another zone says so.
  const zone = useViewerZone();
  const zoneNote = !event.all_day && event.timezone && normaliseZone(event.timezone) !== zone ? t('details.kept_in', { zone: event.timezone }) : null;
  // A read-only calendar's event changes only at its source: no Edit, no Delete.
  const source = useReadOnlySource(event);
  // How a series repeats, in words ("Every Monday", "Weekly on Monday and Wednesday until June 1").
  const repeats = event.recurrence ? summarise(fromRecurrence(event.recurrence, { start: event.start_date, allDay: event.all_day, zone: event.timezone }), { start: event.start_date, allDay: event.all_day, zone: event.timezone }, t, locale) : '';

  // Asked while the card is still open, as the editor does, so Cancel on the scope question comes back to it.
  const remove = async () => {
    if (source !== undefined) return;
    const scope = await scopeFor(event, 'delete');
    if (scope === null) return;
    close();
    void trashEvent(event, scope);
  };

  return (
    <Dialog
      title={title}
      modal={false}
      onRequestClose={close}
      closeLabel={t('action.close')}
      className="details-card"
      style={placeBeside(anchor)}
      onKeyDown={(e) => {
        if (e.key === 'Delete' && !(e.target as HTMLElement).closest('a, input, textarea')) {
          e.preventDefault();
          void remove();
        }
      }}
    >
      <div className="details-body">
        <p className="details-when">
          {colourFor(event) && <span className="ev-dot" style={{ background: colourFor(event) }} aria-hidden="true" />}
          {whenInWords(event, locale, t('field.all_day'))}
        </p>
        {repeats && (
          <p className="details-repeat">
            <Icon name="repeat" size={14} />
            <span>{repeats}</span>
          </p>
        )}
        {zoneNote && <p className="details-note">{zoneNote}</p>}
        {call && (
          <p className="details-join">
            <a className="button button-primary" href={call} target="_blank" rel="noopener noreferrer" aria-label={t('details.join_named', { host: hostOf(call) })}>
              {t('details.join')}
            </a>
            <span className="details-join-host">{hostOf(call)}</span>
          </p>
        )}
        {venue && (
          <div className="details-row">
            <h3 className="details-label">{t('field.venue')}</h3>
            <p>
              <LinkedText text={venueName} />
              {address.map((line) => (
                <span key={line} className="details-line">
                  <LinkedText text={decodeEntities(String(line))} />
                </span>
              ))}
            </p>
            {map && (
              <a href={map} target="_blank" rel="noopener noreferrer" className="details-link">
                {t('details.map')}
              </a>
            )}
          </div>
        )}
        {event.organizer.length > 0 && (
          <div className="details-row">
            <h3 className="details-label">{t('field.organizer')}</h3>
            <ul className="details-list">
              {event.organizer.map((o) => (
                <li key={o.id}>
                  {decodeEntities(o.organizer ?? '')}
                  {o.email && (
                    <>
                      {' · '}
                      <a href={`mailto:${o.email}`}>{o.email}</a>
                    </>
                  )}
                  {o.phone && ` · ${o.phone}`}
                </li>
              ))}
            </ul>
          </div>
        )}
        {(event.categories.length > 0 || event.tags.length > 0) && (
          <ul className="chips details-terms" aria-label={t('editor.group.classify')}>
            {[...event.categories, ...event.tags].map((term, i) => (
              <li key={`${term.taxonomy}-${term.id}`} className="chip">
                {i < event.categories.length && <span className="ev-dot" style={{ background: categoryColour(term) }} aria-hidden="true" />}
                {decodeEntities(term.name)}
              </li>
            ))}
          </ul>
        )}
        {event.reminders && event.reminders.length > 0 && (
          <div className="details-row">
            <h3 className="details-label">{t('notify.label')}</h3>
            <ul className="details-list details-reminders">
              {event.reminders.map((r, i) => (
                <li key={i}>
                  <Icon name="bell" size={14} />
                  {describe(r, event.all_day)}
                </li>
              ))}
            </ul>
          </div>
        )}
        {description && (
          <p className="details-description">
            <LinkedText text={description} />
          </p>
        )}
        {source !== undefined && <p className="details-note">{readOnlyWords(event, source, t, 'subscribe.read_only')}</p>}
      </div>
      <footer className="dialog-footer">
        {source === undefined && (
          <button type="button" className="button button-danger-quiet" onClick={() => void remove()}>
            {t('action.delete')}
          </button>
        )}
        <button
          type="button"
          className="button"
          onClick={() =>
            useUi.getState().openEditor({
              kind: 'create',
              draft: { title, start_date: event.start_date, end_date: event.end_date, all_day: event.all_day, timezone: event.timezone, recurrence: duplicateRecurrence(event) },
              from: event,
            })
          }
        >
          {t('action.duplicate')}
        </button>
        <span className="spacer" />
        {source === undefined && (
          <button type="button" className="button button-primary" data-autofocus onClick={() => useUi.getState().openEditor({ kind: 'edit', event })}>
            {t('action.edit')}
          </button>
        )}
      </footer>
    </Dialog>
  );
}
