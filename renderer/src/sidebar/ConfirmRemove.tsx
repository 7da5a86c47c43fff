import { ConfirmDialog } from '../components/ConfirmDialog';
import { reloadEvents } from '../state/events';
import { toastError, toastInfo } from '../state/toasts';

interface ConfirmRemoveProps {
  title: string;
  text: string;
  confirmLabel: string;
  /** Told once it is gone. */
  removed: string;
  remove(): Promise<void>;
  onClose(): void;
}

/**
 * × on a CalDAV account or a website: asks first; once it is gone, says so and draws the events
 * without its calendars; a refusal is told in a toast.
 */
export function ConfirmRemove({ title, text, confirmLabel, removed, remove, onClose }: ConfirmRemoveProps) {
  return (
    <ConfirmDialog
      title={title}
      text={text}
      confirmLabel={confirmLabel}
      onCancel={onClose}
      onConfirm={() => {
        onClose();
        remove()
          .then(() => {
            toastInfo(removed);
            return reloadEvents();
          })
          .catch((err: Error) => toastError(err.message));
      }}
    />
  );
}
