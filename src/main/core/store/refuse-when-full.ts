// The one way a SQLite writer reached from HTTP refuses a write the data dir has no room for: as the desk's
// `disk_full` error (503, saying where and what to free), like a refused submission, never as a bare 500.
import type { DiskWatch } from '../host/disk-watch';

/** Wraps a repository's methods so a full disk is refused as `disk_full` naming `what`; other errors pass as they were. */
export type FullDiskGuard = <T extends object>(repo: T, what: string) => T;

/**
 * The guard over `disk`. Only synchronous methods are wrapped (better-sqlite3 writes are): a method that returns a
 * promise is passed through as it is.
 */
export function fullDiskGuard(disk: Pick<DiskWatch, 'refuse'>): FullDiskGuard {
  return <T extends object>(repo: T, what: string): T => {
    const guarded: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(repo)) {
      guarded[name] = typeof member !== 'function' ? member : (...args: unknown[]) => {
        try {
          return (member as (...given: unknown[]) => unknown).apply(repo, args);
        } catch (error) {
          return disk.refuse(what, error);
        }
      };
    }
    return guarded as T;
  };
}
