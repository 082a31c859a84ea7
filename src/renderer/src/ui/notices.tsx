// The page's toasts, bottom right: statuses (polite) and alerts (assertive), at most three, each leaving by itself
// after a few seconds unless it carries an action (rules in toasts.ts).
import { useEffect } from 'react';
import { desk, useDesk } from '../state/store';
import { lifetimeOf, type Toast } from './toasts';
import '../styles/notices.css';

export function Notices() {
  const toasts = useDesk((state) => state.toasts);
  return (
    <div className="notices" aria-label="Notifications">
      {toasts.map((toast) => <ToastItem key={toast.id} toast={toast} />)}
    </div>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  useEffect(() => {
    const lifetime = lifetimeOf(toast);
    if (lifetime === undefined) return;
    const timer = setTimeout(() => desk().dismissToast(toast.id), lifetime);
    return () => clearTimeout(timer);
  }, [toast]);

  return (
    <div className={`notice notice-${toast.kind}`}>
      <div role={toast.kind === 'alert' ? 'alert' : 'status'} className="notice-text">{toast.text}</div>
      {toast.action && (
        <button type="button" className="small" onClick={() => { toast.action?.run(); desk().dismissToast(toast.id); }}>
          {toast.action.label}
        </button>
      )}
      <button type="button" className="quiet small notice-close" aria-label="Dismiss" title="Dismiss" onClick={() => desk().dismissToast(toast.id)}>×</button>
    </div>
  );
}
