/**
 * "This event / This and following events / All events": asked before an occurrence of a series
 * is edited, moved, resized or deleted, as Google Calendar and Thunderbird ask. The names are
 * stable (tests outside the project use them).
 *
 * The question is asked from anywhere (a drag in the month grid, the Delete key, the editor) and
 * answered through a promise: `askScope` resolves to the choice, or null for Cancel/Escape.
 */
import { create } from 'zustand';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../components/Dialog';

/** The API's `recurrence_scope`. */
export type Scope = 'this' | 'following' | 'all';
export const SCOPES: Scope[] = ['this', 'following', 'all'];

export interface ScopeQuestion {
  kind: 'edit' | 'delete';
  /** The event's title, for the question's text. */
  title: string;
  /** The answers that make sense (a new rule cannot apply to one occurrence only). */
  scopes: Scope[];
}

interface Pending extends ScopeQuestion {
  answer(scope: Scope | null): void;
}

export const useScopeQuestion = create<{ pending: Pending | null }>()(() => ({ pending: null }));

export function askScope(kind: ScopeQuestion['kind'], title: string, scopes: Scope[] = SCOPES): Promise<Scope | null> {
  // One question at a time: a new one cancels the one left open.
  useScopeQuestion.getState().pending?.answer(null);
  return new Promise((resolve) => {
    const answer = (scope: Scope | null) => {
      if (useScopeQuestion.getState().pending === pending) useScopeQuestion.setState({ pending: null });
      resolve(scope);
    };
    const pending: Pending = { kind, title, scopes, answer };
    useScopeQuestion.setState({ pending });
  });
}

/** The same as a hook, for components. */
export function useAskScope(): typeof askScope {
  return askScope;
}

/** Mounted once (App): shows the open question. */
export function ScopeDialogHost() {
  const pending = useScopeQuestion((s) => s.pending);
  return pending ? <ScopeDialog key={`${pending.kind}:${pending.title}`} question={pending} onAnswer={pending.answer} /> : null;
}

export function ScopeDialog({ question, onAnswer }: { question: ScopeQuestion; onAnswer(scope: Scope | null): void }) {
  const { t } = useTranslation();
  return (
    <Dialog title={t(question.kind === 'edit' ? 'scope.edit_title' : 'scope.delete_title')} onRequestClose={() => onAnswer(null)} className="scope-dialog">
      <p className="confirm-text">{t(question.kind === 'edit' ? 'scope.edit_text' : 'scope.delete_text', { title: question.title })}</p>
      <div className="scope-choices">
        {SCOPES.filter((s) => question.scopes.includes(s)).map((s, i) => (
          <button
            key={s}
            type="button"
            className={`button ${question.kind === 'delete' ? 'button-danger-quiet' : ''}`}
            {...(i === 0 ? { 'data-autofocus': true } : {})}
            onClick={() => onAnswer(s)}
          >
            {t(`scope.${s}`)}
          </button>
        ))}
      </div>
      <footer className="dialog-footer">
        <span className="spacer" />
        <button type="button" className="button" onClick={() => onAnswer(null)}>
          {t('action.cancel')}
        </button>
      </footer>
    </Dialog>
  );
}
