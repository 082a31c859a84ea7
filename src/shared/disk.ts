// The desk's notice of a full disk under its data dir, as the settings route reports it while it lasts.
import { z } from 'zod';

export const DiskNotice = z.object({
  /** A path on the full file system (the data dir). */
  path: z.string(),
  /** When the desk's first write failed for want of space (ISO time). */
  since: z.string(),
  /** What happened and what to free, starting with "Disk full". */
  message: z.string(),
  /** Events recorded but not yet written; they are written once there is room. */
  queuedEvents: z.number().int().min(0),
});
export type DiskNotice = z.infer<typeof DiskNotice>;
