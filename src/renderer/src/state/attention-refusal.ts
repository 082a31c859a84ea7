// Reads an approval the desk refused because the task changes files that can run code or steer agents on the
// person's machine (`409 attention_unconfirmed`): which files, and why, for the board to ask once.
import { isDeskError } from '../../../shared/desk-error';
import type { AttentionFile } from '../../../shared/task';

/** The files an `attention_unconfirmed` refusal names; undefined for any other error. */
export function attentionRefusalOf(error: unknown): AttentionFile[] | undefined {
  if (!isDeskError(error, 'attention_unconfirmed')) return undefined;
  const files = error.details?.files;
  if (!Array.isArray(files)) return [];
  return files.flatMap((file: unknown) => {
    if (typeof file !== 'object' || file === null) return [];
    const { path, reason } = file as Record<string, unknown>;
    return typeof path === 'string' ? [{ path, reason: typeof reason === 'string' ? reason : '' }] : [];
  });
}
