// A modal dialog named by its heading: focus moves in, stays in (Tab wraps), Escape closes, focus returns.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import '../styles/dialog.css';

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Dialog({ title, onClose, children, size = 'normal' }: {
  title: string; onClose(): void; children: ReactNode; size?: 'small' | 'normal' | 'wide';
}) {
  const headingId = useId();
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const box = ref.current;
    const first = box?.querySelector<HTMLElement>('[data-autofocus]') ?? box?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => before?.focus?.();
  }, []);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items.at(-1);
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  return (
    <div className="backdrop">
      <div ref={ref} className={`dialog dialog-${size}`} role="dialog" aria-modal="true" aria-labelledby={headingId} onKeyDown={onKeyDown}>
        <h2 id={headingId} className="dialog-title">{title}</h2>
        {children}
      </div>
    </div>
  );
}

/** A yes/no question: the first button does it, the second keeps things as they are. */
export function ConfirmDialog({ title, body, confirm, keep = 'Keep it', danger = true, onConfirm, onClose }: {
  title: string; body: ReactNode; confirm: string; keep?: string; danger?: boolean; onConfirm(): void; onClose(): void;
}) {
  return (
    <Dialog title={title} onClose={onClose} size="small">
      <div className="dialog-body">{body}</div>
      <div className="dialog-actions">
        <button type="button" onClick={onClose} data-autofocus>{keep}</button>
        <button type="button" className={danger ? 'danger' : 'primary'} onClick={() => { onConfirm(); onClose(); }}>{confirm}</button>
      </div>
    </Dialog>
  );
}
