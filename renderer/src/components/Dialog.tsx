/**
 * A modal built on <dialog>: the browser makes the rest of the page inert, traps focus and maps
 * Escape to "cancel". Focus returns to whatever had it before the dialog opened.
 */
import { Icon } from './Icon';
import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogProps {
  title: ReactNode;
  /** Asked to close (Escape, backdrop click, close button); the owner decides. */
  onRequestClose(): void;
  children: ReactNode;
  className?: string;
  /** Text for the × button; omitted → no button. */
  closeLabel?: string;
  describedBy?: string;
}

export function Dialog({ title, onRequestClose, children, className, closeLabel, describedBy }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onRequestClose);
  close.current = onRequestClose;

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    const previous = document.activeElement as HTMLElement | null;
    if (!d.open) {
      try {
        d.showModal();
      } catch {
        d.setAttribute('open', '');
      }
    }
    // showModal focuses the first focusable element; prefer one marked data-autofocus.
    const preferred = d.querySelector<HTMLElement>('[data-autofocus]');
    preferred?.focus();
    return () => {
      if (d.open) d.close();
      if (previous && previous.isConnected) previous.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`dialog ${className ?? ''}`}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={(e) => {
        e.preventDefault();
        close.current();
      }}
      onMouseDown={(e) => {
        // A press on the backdrop lands on the <dialog> itself, outside its content box.
        if (e.target === ref.current) {
          const r = ref.current.getBoundingClientRect();
          const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
          if (!inside) close.current();
        }
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        {closeLabel && (
          <button type="button" className="icon-button" aria-label={closeLabel} onClick={() => close.current()}>
            <Icon name="close" size={16} />
          </button>
        )}
      </header>
      {children}
    </dialog>
  );
}
