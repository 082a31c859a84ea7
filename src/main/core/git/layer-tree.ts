// PROVISIONAL (replaced by the layer-tree branch): the tree a commit of a layered worktree holds, read through the
// merged view with git's own `add --all` into a scratch index. Correct, but its cost grows with the repository.
import { randomUUID } from 'node:crypto';
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitRepo, GitRunner } from './git-runner';
import { ALL_BUT_LOCAL_FILES } from './vendor-local-files';

export interface LayerView {
  upperDir: string;
  /** The overlay as the desk's own file calls reach it (`/proc/<pid>/root/<worktree>`). */
  mergedDir: string;
  /** git run inside the layer's namespace, where the worktree's path shows the overlay (./namespaced-git.ts). */
  git: GitRunner;
}

export async function treeOfLayer(_git: GitRunner, repo: GitRepo, view: LayerView, _baseTree: string, scratchDir: string): Promise<string> {
  const indexFile = join(scratchDir, `layer-index-${randomUUID()}`);
  try {
    await copyFile(join(repo.gitDir, 'index'), indexFile);
    await view.git.run(repo, ['add', '--all', ...ALL_BUT_LOCAL_FILES], { indexFile });
    return await view.git.run(repo, ['write-tree'], { indexFile });
  } finally {
    await rm(indexFile, { force: true });
  }
}
