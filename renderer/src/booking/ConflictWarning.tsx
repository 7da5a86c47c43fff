/**
 * Double-booking warnings on screen: `ConflictWarning` under a form that places an event (the
 * editor; quick add can mount it the same way), asked again as the time, venue or organizers
 * change; and `confirmDespiteConflicts`, the question a drag or resize asks before it saves
 * ("Move anyway" or put it back). Neither ever stops a save the user means: they say so first.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import { Dialog } from '../components/Dialog';
import { useLocale } from '../state/calendarSettings';
import { conflictSentence, findConflicts, placementDay, type Conflict, type Placement } from './conflicts';
import './booking.css';

/** How long typing may pause before the question is asked (a time field changes per keystroke). */
const ASK_AFTER_MS = 250;

/** Asks about `placement` as it changes; the latest answer wins. */
function useConflicts(placement: Placement | null): Conflict[] {
  const [found, setFound] = useState<Conflict[]>([]);
  const key = placement ? JSON.stringify(placement) : '';
  useEffect(() => {
    if (!placement) return setFound([]);
    const abort = new AbortController();
    const timer = setTimeout(() => {
      findConflicts(placement, abort.signal).then(
        (c) => !abort.signal.aborted && setFound(c),
        () => !abort.signal.aborted && setFound([]),
      );
    }, ASK_AFTER_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
    // `key` stands for the placement's content: a new object with the same values asks nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return placement ? found : [];
}

/** The list of sentences, one per conflicting event. */
export function ConflictList({ conflicts, placement }: { conflicts: Conflict[]; placement: Placement }) {
  const locale = useLocale();
  const day = placementDay(placement);
  return (
    <ul className="conflict-list">
      {conflicts.map((c) => (
        <li key={c.event.id}>{conflictSentence(c, day, locale)}</li>
      ))}
    </ul>
  );
}

/** The warning under a form: nothing when nobody else holds the venue or organizers then. */
export function ConflictWarning({ placement }: { placement: Placement | null }) {
  const { t } = useTranslation();
  const conflicts = useConflicts(placement);
  if (!placement || !conflicts.length) return <div className="conflict-slot" role="status" aria-live="polite" />;
  return (
    <div className="conflict-slot" role="status" aria-live="polite">
      <div className="conflict-warning" data-testid="conflict-warning">
        <strong className="conflict-heading">{t('booking.heading')}</strong>
        <ConflictList conflicts={conflicts} placement={placement} />
        <span className="conflict-note">{t('booking.still_save')}</span>
      </div>
    </div>
  );
}

interface PendingConfirm {
  conflicts: Conflict[];
  placement: Placement;
  answer(go: boolean): void;
}

const useConfirm = create<{ pending: PendingConfirm | null }>()(() => ({ pending: null }));

/**
 * Before a drag or resize saves: when the new time puts the event where another holds its venue
 * or an organizer, asks "Move anyway?" and resolves to the answer; true at once when nothing is
 * in the way or the question could not be asked (the save goes on, as without the warning).
 */
export async function confirmDespiteConflicts(placement: Placement): Promise<boolean> {
  let conflicts: Conflict[];
  try {
    conflicts = await findConflicts(placement);
  } catch {
    return true;
  }
  if (!conflicts.length) return true;
  useConfirm.getState().pending?.answer(false);
  return new Promise((resolve) => {
    const pending: PendingConfirm = {
      conflicts,
      placement,
      answer(go) {
        if (useConfirm.getState().pending === pending) useConfirm.setState({ pending: null });
        resolve(go);
      },
    };
    useConfirm.setState({ pending });
  });
}

/** Mounted once (App): shows the open question. */
export function ConflictConfirmHost() {
  const pending = useConfirm((s) => s.pending);
  const { t } = useTranslation();
  const key = useMemo(() => pending?.conflicts.map((c) => c.event.id).join(','), [pending]);
  if (!pending) return null;
  return (
    <Dialog key={key} title={t('booking.heading')} onRequestClose={() => pending.answer(false)} className="conflict-dialog">
      <div className="conflict-warning">
        <ConflictList conflicts={pending.conflicts} placement={pending.placement} />
      </div>
      <footer className="dialog-footer">
        <span className="spacer" />
        <button type="button" className="button" onClick={() => pending.answer(false)}>
          {t('action.cancel')}
        </button>
        <button type="button" className="button button-primary" data-autofocus onClick={() => pending.answer(true)}>
          {t('booking.move_anyway')}
        </button>
      </footer>
    </Dialog>
  );
}
