// The desk's own notice of a full disk: raised when one of its writes under the data dir fails for want of space,
// cleared when every writer that waited got through. Logged once at each change; the settings route reports it.
import type { DiskNotice } from '../../../shared/disk';
import { diskFullError, diskFullMessage, isDiskFull, mountPointOf } from './disk-full';

export interface DiskWatch {
  /** A write under the data dir failed for want of space (`what` names the writer: "task events"). */
  full(what: string): void;
  /** The writer's writes got through: for it there is room again. */
  written(what: string): void;
  /** The notice while the disk is full, else undefined. */
  current(): DiskNotice | undefined;
  /** Rethrows `error`, as the desk's `disk_full` error (503, saying where and what to free) when it is one. */
  refuse(what: string, error: unknown): never;
}

export interface DiskWatchDeps {
  dataDir: string;
  now(): Date;
  log(line: string): void;
  /** Events recorded but not yet written (shown in the notice). */
  queuedEvents(): number;
}

export function createDiskWatch(deps: DiskWatchDeps): DiskWatch {
  let notice: { since: string; message: string } | undefined;
  const waiting = new Set<string>();
  let mountPoint: string | undefined;
  // Looked up once, in the background: the notice is raised at once and names the mount point once it is known.
  void mountPointOf(deps.dataDir).then((found) => { mountPoint = found; });
  const place = (what: string) => ({ what, path: deps.dataDir });
  const full = (what: string) => {
    waiting.add(what);
    if (notice) return;
    notice = { since: deps.now().toISOString(), message: diskFullMessage(place(what), mountPoint) };
    deps.log(notice.message);
  };
  return {
    full,
    written(what) {
      waiting.delete(what);
      if (!notice || waiting.size > 0) return;
      deps.log(`Space is back under ${deps.dataDir}: the desk writes again (it was full since ${notice.since}); what waited is being stored.`);
      notice = undefined;
    },
    current: () => (notice ? { path: deps.dataDir, ...notice, queuedEvents: deps.queuedEvents() } : undefined),
    refuse(what, error) {
      if (!isDiskFull(error)) throw error;
      const refused = diskFullError(place(what), mountPoint, error);
      // Nothing waits to be written again (the caller is told), so the notice is left to the writers that wait.
      if (!notice) deps.log(refused.message);
      throw refused;
    },
  };
}
