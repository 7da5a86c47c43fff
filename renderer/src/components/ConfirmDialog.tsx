/** Asks before something that cannot be undone; Cancel has the focus, so Enter is the safe answer. */
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';

interface ConfirmDialogProps {
  title: string;
  text: string;
  confirmLabel: string;
  onCancel(): void;
  onConfirm(): void;
}

export function ConfirmDialog({ title, text, confirmLabel, onCancel, onConfirm }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog title={title} onRequestClose={onCancel} className="confirm-dialog">
      <p className="confirm-text">{text}</p>
      <footer className="dialog-footer">
        <span className="spacer" />
        <button type="button" className="button" data-autofocus onClick={onCancel}>
          {t('action.cancel')}
        </button>
        <button type="button" className="button button-danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </footer>
    </Dialog>
  );
}
