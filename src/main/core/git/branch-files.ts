// Where a branch points, read from git's own ref files without starting git: the two look-ups every new task's
// worktree needs (its base, and whether its branch is taken). Undefined whenever the files are not the plain kind.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { readPlainSync } from './plain-file';

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** A packed-refs file larger than this is left to git: reading it whole per task would cost more than a process. */
const PACKED_REFS_MAX_BYTES = 1024 * 1024;

/** What the files say of a branch: its commit, that it does not exist, or `undefined`: ask git. */
export type BranchInFiles = { kind: 'found'; commit: string } | { kind: 'absent' } | undefined;

/**
 * The sha `ref` has in a packed-refs file's text; undefined when it is not listed. Lines are `<sha> <ref>`, with
 * `#` headers and `^<sha>` peeled lines of tags, which name no ref.
 */
export function shaInPackedRefs(text: string, ref: string): string | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space > 0 && line.slice(space + 1).replace(/\r$/, '') === ref) return line.slice(0, space);
  }
  return undefined;
}

/** Whether a branch name is one the files can answer for: plain parts only (git checks the rest itself). */
function plainBranch(branch: string): boolean {
  return branch !== '' && !branch.includes('\0') && !branch.includes('\\')
    && branch.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/**
 * `refs/heads/<branch>` in the repository's common git dir as git's files backend stores it: the loose file first,
 * then packed-refs (git's own order, safe against a `pack-refs` running meanwhile, which writes packed-refs before it
 * removes the loose file). Undefined (ask git) for a reftable repository, a symbolic or odd ref, an unreadable or
 * large packed-refs, or a sha that is not plain hex: the answer is only ever one git would give.
 */
export async function branchInFiles(commonDir: string, branch: string): Promise<BranchInFiles> {
  if (!plainBranch(branch)) return undefined;
  // Blocking reads of a few small files (./plain-file.ts says why).
  if (lstatSync(join(commonDir, 'reftable'), { throwIfNoEntry: false }) !== undefined) return undefined;
  const loose = readPlainSync(join(commonDir, 'refs', 'heads', branch), 256);
  if (loose === 'odd') return undefined;
  if (loose !== 'missing') return SHA.test(loose.trim()) ? { kind: 'found', commit: loose.trim() } : undefined;
  const packed = readPlainSync(join(commonDir, 'packed-refs'), PACKED_REFS_MAX_BYTES);
  if (packed === 'odd') return undefined;
  const sha = packed === 'missing' ? undefined : shaInPackedRefs(packed, `refs/heads/${branch}`);
  if (sha === undefined) return { kind: 'absent' };
  return SHA.test(sha) ? { kind: 'found', commit: sha } : undefined;
}
