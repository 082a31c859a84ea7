// The page's one status line (polite) and one alert (assertive); statuses fade, alerts stay until dismissed.
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { desk, useDesk } from '../state/store';
import '../styles/notices.css';

const STATUS_MS = 6000;

export function Notices() {
  const { alert, status } = useDesk(useShallow((state) => ({ alert: state.alert, status: state.status })));

  useEffect(() => {
    if (!status?.text) return;
    const timer = setTimeout(() => {
      if (desk().status?.id === status.id) desk().showStatus('');
    }, STATUS_MS);
    return () => clearTimeout(timer);
  }, [status]);

  return (
    <div className="notices">
      <div role="status" className={status?.text ? 'notice notice-status' : 'notice-empty'}>{status?.text}</div>
      {alert && (
        <div className="notice notice-alert">
          <div role="alert">{alert.text}</div>
          <button type="button" className="quiet" onClick={() => desk().dismissAlert()}>Dismiss</button>
        </div>
      )}
    </div>
  );
}
