// Reads the facts ./layer-use.ts decides on for one task layer: the desk's record of its task's worktree, what the
// worktree's `.git` says on disk (outside any layer: nothing is mounted when the sweep reads it), and whether a
// retirement set the folder aside. Reads only; throws when a fact cannot be read (the layer is then left alone).
import { lstat, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { LayerUseFacts } from './layer-use';
import { linkedGitDir } from './worktree-guard';
import type { WorktreeRecords } from './worktree-records';

export async function readLayerUse(records: Pick<WorktreeRecords, 'get'>, commonDir: string, layer: { taskId: string; target: string }): Promise<LayerUseFacts> {
  const { target } = layer;
  const [record, link, setAside] = await Promise.all([records.get(layer.taskId), readLink(target, commonDir), wasSetAside(target)]);
  return { recordPath: record?.path, link, setAside };
}

async function readLink(target: string, commonDir: string): Promise<LayerUseFacts['link']> {
  const dotGit = join(target, '.git');
  const info = await lstat(dotGit).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (!info) return { kind: 'gone' };
  if (!info.isFile()) return { kind: 'odd', why: `${dotGit} is not a file` };
  return await linkedGitDir(target, commonDir) !== undefined ? { kind: 'known' } : { kind: 'odd', why: `${dotGit} names no worktree git dir of the repository that names it back` };
}

async function wasSetAside(target: string): Promise<boolean> {
  const prefix = `${basename(target)}.stray-`;
  const names = await readdir(dirname(target)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return names.some((name) => name.startsWith(prefix));
}
