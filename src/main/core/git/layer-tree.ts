// PROVISIONAL (replaced by the layer-tree branch): the tree a commit of a layered worktree holds, read through the
// merged view with git's own `add --all` into a scratch index. Correct, but its cost grows with the repository.
import { randomUUID } from 'node:crypto';
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitRepo, GitRunner } from './git-runner';
import { ALL_BUT_LOCAL_FILES } from './vendor-local-files';

export interface LayerView {
  upperDir: string;
  mergedDir: string;
}

export async function treeOfLayer(git: GitRunner, repo: GitRepo, view: LayerView, _baseTree: string, scratchDir: string): Promise<string> {
  const indexFile = join(scratchDir, `layer-index-${randomUUID()}`);
  try {
    await copyFile(join(repo.gitDir, 'index'), indexFile);
    const merged = { ...repo, workTree: view.mergedDir };
    await git.run(merged, ['add', '--all', ...ALL_BUT_LOCAL_FILES], { indexFile });
    return await git.run(merged, ['write-tree'], { indexFile });
  } finally {
    await rm(indexFile, { force: true });
  }
}
