/**
 * Quick add (issue 27 §1): one line in plain words, read as it is typed into what the event will
 * be, shown before it is saved. The sentence is read once per keystroke, with the moment of that
 * keystroke as "now", and the result is kept: Enter saves that very result (never a second reading
 * with a later "now"), and "More options" carries it into the full editor. The reading itself is
 * shared/quick-add/parse.ts, the one the API and the CLI use.
 */
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { parseQuickAdd, type QuickAddResult } from '@shared/quick-add/parse';
import { LOCAL_CALENDAR_ID } from '@shared/schema/accounts';
import { ApiError } from '../api/client';
import { Dialog } from '../components/Dialog';
import { Icon } from '../components/Icon';
import { defaultEventMinutes, defaultRemindersFor, useLocale } from '../state/calendarSettings';
import { calendarLabel, newEventCalendar, useCalendars } from '../state/calendars';
import { createEvent } from '../state/eventActions';
import { useLookups } from '../state/lookups';
import { useSettings } from '../state/settings';
import { useUi, type EventDraft } from '../state/ui';
import { viewerZone } from '../lib/dates';
import { decodeEntities } from './toEventInput';
import { describeSpan } from '../lib/format';
import { fromRecurrence } from '../recurrence/rule';
import { summarise } from '../recurrence/summary';
import { useDescribe } from '../reminders/NotificationsControl';
import { ConflictWarning } from '../booking/ConflictWarning';
import type { Placement } from '../booking/conflicts';

/** The event a reading makes, as a draft (the editor's and describeSpan's shape). */
function draftOf(r: QuickAddResult): EventDraft {
  const b = r.body;
  return {
    title: b.title,
    start_date: b.start_date,
    end_date: b.end_date,
    all_day: b.all_day,
    timezone: b.timezone,
    ...(b.recurrence ? { recurrence: b.recurrence } : {}),
    ...(b.reminders ? { reminders: b.reminders } : {}),
    ...(b.venue !== undefined ? { venue: b.venue } : {}),
    ...(b.categories ? { categories: b.categories } : {}),
  };
}

export function QuickAdd() {
  const { t } = useTranslation();
  const locale = useLocale();
  const lang = useSettings((s) => s.uiLanguage);
  const close = useUi((s) => s.closeQuickAdd);
  const openEditor = useUi((s) => s.openEditor);
  const venues = useLookups((s) => s.venues);
  const calendars = useCalendars((s) => s.calendars);
  const describeReminder = useDescribe();
  const [text, setText] = useState('');
  const [read, setRead] = useState<QuickAddResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const calendar = newEventCalendar(calendars);
  const shown = calendars.find((c) => c.id === calendar);
  // "On this computer" in the reader's language, as the sidebar names it.
  const calendarName = shown && calendarLabel(shown, t);

  function change(value: string) {
    setText(value);
    setError(null);
    setRead(
      value.trim()
        ? parseQuickAdd(value, {
            lang,
            now: new Date(),
            zone: viewerZone(),
            defaultMinutes: defaultEventMinutes(),
            venues: venues.map((v) => ({ id: v.id, name: decodeEntities(v.venue ?? '') })),
          })
        : null,
    );
  }

  const problems = read ? read.problems : ['no_date' as const];
  const reminders = read ? (read.body.reminders ?? defaultRemindersFor(read.body.all_day)) : [];

  async function save(e?: FormEvent) {
    e?.preventDefault();
    if (saving) return;
    if (!read || problems.length) {
      setError(t(problems.includes('no_date') ? 'quick_add.needs_date' : 'quick_add.needs_title'));
      return;
    }
    setSaving(true);
    try {
      await createEvent({
        ...read.body,
        // Always said, none included: what the preview listed, not whatever the server would default to.
        reminders,
        ...(calendar !== LOCAL_CALENDAR_ID ? { calendar } : {}),
      });
      close();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  }

  function moreOptions() {
    if (!read || problems.includes('no_date')) {
      setError(t('quick_add.needs_date'));
      return;
    }
    openEditor({ kind: 'create', draft: { ...draftOf(read), reminders } });
    close();
  }

  const b = read?.body;
  const start = b ? { start: b.start_date, allDay: b.all_day, zone: b.timezone } : undefined;
  // Who else holds the venue then (issue 27 §2), asked about what the preview shows; Save stays possible.
  const placement = useMemo<Placement | null>(
    () =>
      read && read.body.venue !== undefined && !read.problems.includes('no_date')
        ? { start_date: read.body.start_date, end_date: read.body.end_date, timezone: read.body.timezone, all_day: read.body.all_day, venue: read.body.venue }
        : null,
    [read],
  );
  return (
    <Dialog title={t('quick_add.title')} onRequestClose={close} closeLabel={t('action.close')} className="quick-add-dialog">
      <form onSubmit={save} className="quick-form quick-add-form" noValidate>
        <input
          id="quick-add-text"
          data-autofocus
          autoFocus
          autoComplete="off"
          spellCheck={false}
          maxLength={1000}
          aria-label={t('quick_add.field')}
          aria-describedby="quick-add-preview"
          aria-invalid={error ? true : undefined}
          placeholder={t('quick_add.placeholder')}
          value={text}
          onChange={(e) => change(e.target.value)}
        />
        <p className="quick-add-hint">{t('quick_add.hint')}</p>
        <dl id="quick-add-preview" className="quick-add-preview" aria-live="polite" aria-label={t('quick_add.preview')}>
          {b && start ? (
            <>
              <Row part="title" icon="pushpin" label={t('quick_add.what')}>
                {b.title ? b.title : <em className="quick-add-missing">{t('quick_add.no_title')}</em>}
              </Row>
              <Row part="when" icon="clock" label={t('quick_add.when')}>
                {problems.includes('no_date') ? <em className="quick-add-missing">{t('quick_add.no_date')}</em> : <Whole text={describeSpan(draftOf(read!), locale, t('field.all_day'))} />}
              </Row>
              {!b.all_day && read!.minutes !== undefined && !problems.includes('no_date') && (
                <Row part="length" icon="clock" label={t('quick_add.length')}>
                  {lengthWords(read!.minutes, t)}
                </Row>
              )}
              {b.recurrence && (
                <Row part="repeat" icon="repeat" label={t('quick_add.repeats')}>
                  {summarise(fromRecurrence(b.recurrence, start), start, t, locale)}
                </Row>
              )}
              {read!.venue && (
                <Row part="venue" icon="pin" label={t('quick_add.venue')}>
                  {read!.venue.name}
                </Row>
              )}
              {b.categories && (
                <Row part="categories" icon="tag" label={t('quick_add.categories')}>
                  {b.categories.join(', ')}
                </Row>
              )}
              <Row part="reminders" icon="bell" label={t('quick_add.reminders')}>
                {reminders.length ? reminders.map((r) => describeReminder(r, b.all_day)).join(', ') : t('quick_add.no_reminders')}
              </Row>
              {calendarName && (
                <Row part="calendar" icon="calendar" label={t('quick_add.calendar')}>
                  {calendarName}
                </Row>
              )}
            </>
          ) : (
            <div className="quick-add-empty">{t('quick_add.examples')}</div>
          )}
        </dl>
        <ConflictWarning placement={placement} />
        {error && (
          <div className="form-error" role="alert">
            {error}
          </div>
        )}
        <footer className="dialog-footer">
          <button type="button" className="button button-quiet" onClick={moreOptions}>
            {t('quick.more')}
          </button>
          <span className="spacer" />
          <button type="button" className="button" onClick={close}>
            {t('action.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? t('action.saving') : t('action.save')}
          </button>
        </footer>
      </form>
    </Dialog>
  );
}

function Row({ part, icon, label, children }: { part: string; icon: 'pushpin' | 'clock' | 'repeat' | 'pin' | 'tag' | 'bell' | 'calendar'; label: string; children: ReactNode }) {
  return (
    <div className="quick-add-row" data-part={part} title={label}>
      <dt>
        <Icon name={icon} size={15} />
        <span className="visually-hidden">{label}</span>
      </dt>
      <dd>{children}</dd>
    </div>
  );
}

/** "Friday, March 26 · 1:00 PM – 2:00 PM", its day and its times each kept on one line on a narrow screen. */
function Whole({ text }: { text: string }) {
  const parts = text.split(' · ');
  return (
    <>
      {parts.map((p, i) => (
        <span key={i} className="quick-add-whole">
          {i > 0 && ' · '}
          {p}
        </span>
      ))}
    </>
  );
}

/** "45 minutes", "1 hour 30 minutes", in the interface language. */
function lengthWords(minutes: number, t: (key: string, opts?: Record<string, unknown>) => string): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const parts = [h ? t('notify.unit.hours', { count: h }) : '', m || !h ? t('notify.unit.minutes', { count: m }) : ''].filter(Boolean);
  return parts.join(' ');
}
