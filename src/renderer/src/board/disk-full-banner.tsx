// The desk's notice while the file system holding its data dir is full: what happened, where, and what to free. It
// goes by itself once the desk has room again (the settings it reads say so).
import { useEffect } from 'react';
import { desk, useDesk } from '../state/store';
import '../styles/disk-full.css';

/** How often the board asks the desk whether its disk is full; a notice shows within this long, and goes as soon. */
export const DISK_CHECK_MS = 5000;

/** Keeps the desk's settings (and with them the disk notice) fresh while the board is open. */
function useDiskCheck(): void {
  useEffect(() => {
    const timer = setInterval(() => void desk().refreshSettings(), DISK_CHECK_MS);
    return () => clearInterval(timer);
  }, []);
}

export function DiskFullBanner() {
  useDiskCheck();
  const notice = useDesk((state) => state.settings?.diskFull);
  if (!notice) return null;
  const waiting = notice.queuedEvents > 0 ? ` ${notice.queuedEvents} event${notice.queuedEvents === 1 ? '' : 's'} wait in memory and will be stored then.` : '';
  return (
    <section className="disk-full" role="alert" aria-label="Disk full">
      <strong>The desk&apos;s disk is full</strong> <span className="disk-full-path" title={notice.path}>{notice.path}</span>
      <p>{notice.message}{waiting}</p>
    </section>
  );
}
