/** The toast stack. Errors are announced assertively, everything else politely. */
import { Icon } from './Icon';
import { useTranslation } from 'react-i18next';
import { useToasts } from '../state/toasts';

export function Toasts() {
  const { t } = useTranslation();
  const toasts = useToasts((s) => s.toasts);
  const dismiss = useToasts((s) => s.dismiss);
  return (
    <div className="toasts" aria-label={t('toast.region')}>
      <div role="status" aria-live="polite" className="toast-list">
        {toasts
          .filter((x) => x.kind !== 'error')
          .map((x) => (
            <div key={x.id} className="toast">
              <span className="toast-message">{x.message}</span>
              {x.action && (
                <button
                  type="button"
                  className="toast-action"
                  onClick={() => {
                    dismiss(x.id);
                    x.action!.run();
                  }}
                >
                  {x.action.label}
                </button>
              )}
              <button type="button" className="icon-button toast-close" aria-label={t('action.dismiss')} onClick={() => dismiss(x.id)}>
                <Icon name="close" size={16} />
              </button>
            </div>
          ))}
      </div>
      <div role="alert" className="toast-list">
        {toasts
          .filter((x) => x.kind === 'error')
          .map((x) => (
            <div key={x.id} className="toast toast-error">
              <span className="toast-icon" aria-hidden="true">!</span>
              <span className="toast-message">{x.message}</span>
              <button type="button" className="icon-button toast-close" aria-label={t('action.dismiss')} onClick={() => dismiss(x.id)}>
                <Icon name="close" size={16} />
              </button>
            </div>
          ))}
      </div>
    </div>
  );
}
