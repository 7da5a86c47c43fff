/**
 * The footer an editor shows instead of its buttons when closing would lose changes: keep
 * editing (focused, so Enter or Escape never discards by accident) or discard.
 */
import { useTranslation } from 'react-i18next';

export function DiscardBar({ onKeep, onDiscard }: { onKeep: () => void; onDiscard: () => void }) {
  const { t } = useTranslation();
  return (
    <footer className="dialog-footer confirm-bar" role="group" aria-label={t('editor.discard_question')}>
      <span>{t('editor.discard_question')}</span>
      <button type="button" className="button" data-autofocus autoFocus onClick={onKeep}>
        {t('editor.keep_editing')}
      </button>
      <button type="button" className="button button-danger" onClick={onDiscard}>
        {t('editor.discard')}
      </button>
    </footer>
  );
}
