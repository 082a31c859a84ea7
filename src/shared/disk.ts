// The desk's notice of a full disk under its data dir, as the settings route reports it while it lasts, and what its
// snapshots and task layers take.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

export const DiskNotice = lazySchema(() => z.object({
  /** A path on the full file system (the data dir). */
  path: z.string(),
  /** When the desk's first write failed for want of space (ISO time). */
  since: z.string(),
  /** What happened and what to free, starting with "Disk full". */
  message: z.string(),
  /** Events recorded but not yet written; they are written once there is room. */
  queuedEvents: z.number().int().min(0),
}));
export type DiskNotice = z.infer<typeof DiskNotice>;

/** What the desk's snapshots of base commits and the tasks' layers over them take on disk (`GET /api/disk-use`). */
export const DiskUse = lazySchema(() => z.object({
  /** Bytes allocated to snapshots (each inode once: hard links are not counted twice). */
  snapshotsBytes: z.number().int().min(0),
  /** How many snapshots there are. */
  snapshots: z.number().int().min(0),
  /** Bytes allocated to the tasks' own layers beyond what they share with a snapshot. */
  layersBytes: z.number().int().min(0),
  totalBytes: z.number().int().min(0),
  /**
   * What new tasks' worktrees are: `layers` (copy-on-write over a snapshot where the repository's size or setup pays for
   * it: docs/git.md), or `checkouts` with the reason layers cannot be used here.
   */
  worktrees: z.object({ kind: z.enum(['layers', 'checkouts']), reason: z.string().optional() }).optional(),
}));
export type DiskUse = z.infer<typeof DiskUse>;
