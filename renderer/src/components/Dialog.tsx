/**
 * A modal built on <dialog>: the browser makes the rest of the page inert, traps focus and maps
 * Escape to "cancel". Focus returns to whatever had it before the dialog opened.
 */
import { Icon } from './Icon';
import { useEffect, useId, useRef, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';

interface DialogProps {
  title: ReactNode;
  /** Asked to close (Escape, backdrop click, close button); the owner decides. */
  onRequestClose(): void;
  children: ReactNode;
  className?: string;
  /** Text for the × button; omitted → no button. */
  closeLabel?: string;
  describedBy?: string;
  /**
   * false: the page behind stays usable (a details card): no backdrop, Escape and a press outside
   * close it, and focus goes back only if it was still inside.
   */
  modal?: boolean;
  onKeyDown?: (e: KeyboardEvent<HTMLDialogElement>) => void;
  style?: CSSProperties;
}

export function Dialog({ title, onRequestClose, children, className, closeLabel, describedBy, modal = true, onKeyDown, style }: DialogProps) {
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
        if (modal) d.showModal();
        else d.show();
      } catch {
        d.setAttribute('open', '');
      }
    }
    // showModal focuses the first focusable element; prefer one marked data-autofocus.
    const preferred = d.querySelector<HTMLElement>('[data-autofocus]');
    preferred?.focus();
    // A press in another dialog (the scope question this card asked) is not a press on the page behind.
    const pressedOutside = (e: PointerEvent) => {
      const target = e.target as Element;
      if (!d.contains(target) && !target.closest?.('dialog[open]')) close.current();
    };
    if (!modal) document.addEventListener('pointerdown', pressedOutside, true);
    return () => {
      document.removeEventListener('pointerdown', pressedOutside, true);
      const focusWasInside = d.contains(document.activeElement) || document.activeElement === document.body;
      if (d.open) d.close();
      // Back where the user was, without scrolling the page to it.
      if (previous && previous.isConnected && (modal || focusWasInside)) previous.focus({ preventScroll: true });
    };
  }, [modal]);

  return (
    <dialog
      ref={ref}
      className={`dialog ${className ?? ''}`}
      style={style}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={(e) => {
        e.preventDefault();
        close.current();
      }}
      onKeyDown={(e) => {
        // A modeless dialog gets no "cancel" from the browser on Escape.
        if (!modal && e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          close.current();
        }
        onKeyDown?.(e);
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
