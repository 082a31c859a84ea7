// Viewed marks of a task's diff: which files a person marked as looked at, each with the key of the diff they saw,
// so a mark lapses by itself once that file's diff changes (a follow-up, a re-run).
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

/** `GET /api/tasks/<id>/viewed` answer: file path → the diff key it was marked viewed at. */
export const ViewedFiles = lazySchema(() => z.object({ files: z.record(z.string(), z.string()) }));
export type ViewedFiles = z.infer<typeof ViewedFiles>;

/** `PUT /tasks/<id>/viewed` body: mark one file viewed (at the diff `key` shown) or not. */
export const SetViewed = lazySchema(() => z.object({
  path: z.string().min(1).max(4096),
  key: z.string().min(1).max(100),
  viewed: z.boolean(),
}).strict());
export type SetViewed = z.infer<typeof SetViewed>;

/**
 * A short key for what a file's diff shows: its paths, status, counts and both texts (FNV-1a, 2 × 32 bits).
 * Equal diffs give equal keys; a changed text gives another key, so its viewed mark no longer counts.
 */
export function diffKey(file: { path: string; oldPath?: string; status: string; additions: number; deletions: number; oldText?: string; newText?: string }): string {
  const text = [file.path, file.oldPath ?? '', file.status, file.additions, file.deletions, file.oldText ?? '\u0000', file.newText ?? '\u0000'].join('\u0001');
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x5bd1e995) >>> 0;
  }
  return `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`;
}

/** Whether the file counts as viewed: marked, and at the diff it shows now. */
export function isViewed(files: Readonly<Record<string, string>>, file: Parameters<typeof diffKey>[0]): boolean {
  const key = files[file.path];
  return key !== undefined && key === diffKey(file);
}
