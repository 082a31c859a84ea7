// Files clients upload into a task's worktree: where one may go (never outside the worktree, also not through a
// symlink, and never into its .git), writing it, and reading it back.
import { constants, existsSync, lstatSync } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { realPathOf } from '../governance/real-path';
import { resolvedThrough } from '../agents/view-paths';
import { invalidArtifactPath, noWorktree } from './ap-errors';
import { isDeskError } from '../../../shared/desk-error';
import { diskFullError, isDiskFull, mountPointOf } from '../host/disk-full';

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The POSIX path inside the worktree that an upload of `fileName` into the folder `relativePath` goes to.
 * A leading `/` means the worktree's top (the protocol's examples write folders that way); `..` may not climb
 * out; a path through `.git` is refused because writing there would change the repository, not the work.
 */
export function uploadPathFor(relativePath: string | undefined, fileName: string): string {
  const name = fileName.split(/[\\/]/).at(-1) ?? '';
  if (name === '' || name === '.' || name === '..' || CONTROL.test(name)) {
    throw invalidArtifactPath(`file: the file name "${fileName}" cannot be written; send the file with a plain name.`);
  }
  if (relativePath !== undefined && CONTROL.test(relativePath)) throw invalidArtifactPath('relative_path: must not contain control characters.');
  const folders: string[] = [];
  for (const segment of (relativePath ?? '').split(/[\\/]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (folders.pop() === undefined) throw invalidArtifactPath(`relative_path: "${relativePath}" leads outside the task's worktree.`);
      continue;
    }
    folders.push(segment);
  }
  const path = [...folders, name];
  if (path.some(isGitDir)) throw invalidArtifactPath(`relative_path: "${path.join('/')}" is inside the worktree's .git; uploads go next to the work.`);
  return path.join('/');
}

const isGitDir = (segment: string) => segment.toLowerCase() === '.git';

/**
 * How the desk reaches a worktree that is a layer (../sandbox/task-layers.ts): through its holder, with links resolved as
 * the task's namespace resolves them (../agents/view-paths.ts). Absent for a checkout.
 */
export type Reach = (path: string) => string;

/**
 * Where the desk opens what `path` names in the worktree (its real path, or a layer's through its view); throws
 * `artifact_path` when a symlink leads outside.
 */
function confinedTarget(worktree: string, path: string, reach?: Reach): string {
  const root = reach ? worktree : realPathOf(worktree);
  const target = reach ? resolvedThrough(join(root, ...path.split('/')), root, reach) : realPathOf(join(root, ...path.split('/')));
  const inside = relative(root, target);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw invalidArtifactPath(`relative_path: "${path}" leads outside the task's worktree (through a symbolic link).`);
  }
  if (inside.split(sep).some(isGitDir)) throw invalidArtifactPath(`relative_path: "${path}" leads into the worktree's .git.`);
  return reach ? reach(target) : target;
}

/** Writes the upload; the last path segment is never followed as a link, so a link swapped in after the check cannot redirect it. */
export async function writeUpload(worktree: string, path: string, data: Buffer, reach?: Reach): Promise<void> {
  if (!existsSync(reach ? reach(worktree) : worktree)) throw noWorktree(`The task's worktree ${worktree} is gone; resubmit the task to upload into a new one.`);
  const target = confinedTarget(worktree, path, reach);
  try {
    await mkdir(dirname(target), { recursive: true });
    const file = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
    try {
      await file.writeFile(data);
    } finally {
      await file.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR' || code === 'ENOTDIR' || code === 'EEXIST' || code === 'ELOOP') {
      throw invalidArtifactPath(`relative_path: "${path}" cannot be written: a folder, file or link is in the way (${code}).`);
    }
    if (isDiskFull(error)) {
      // What got written is a truncated file: left there, it would pass for the upload.
      await rm(target, { force: true });
      throw diskFullError({ what: `the upload ${path}`, path: worktree }, await mountPointOf(worktree), error);
    }
    throw error;
  }
}

/** The uploaded file as it is in the worktree now, or undefined when it is gone (or was replaced by a link). */
export async function readUpload(worktree: string, path: string, reach?: Reach): Promise<Buffer | undefined> {
  if (!uploadExists(worktree, path, reach)) return undefined;
  try {
    const file = await open(confinedTarget(worktree, path, reach), constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      return await file.readFile();
    } finally {
      await file.close();
    }
  } catch (error) {
    if (isDeskError(error, 'artifact_path')) return undefined;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'EISDIR') return undefined;
    throw error;
  }
}

/** Whether the upload is still a regular file in the worktree. */
export function uploadExists(worktree: string, path: string, reach?: Reach): boolean {
  try {
    const where = join(worktree, ...path.split('/'));
    return lstatSync(reach ? reach(where) : where).isFile();
  } catch {
    return false;
  }
}
