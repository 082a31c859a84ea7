// The tree of each snapshot's base commit, asked of git once per commit for the desk's life: every commit, live diff and
// dirty check of a layered worktree (./layered-commit.ts) starts from it.
import type { GitRepo, GitRunner } from './git-runner';

export interface BaseTrees {
  of(repo: GitRepo, commit: string): Promise<string>;
}

export function createBaseTrees(git: GitRunner): BaseTrees {
  const known = new Map<string, Promise<string>>();
  return {
    of(repo, commit) {
      let tree = known.get(commit);
      if (!tree) {
        tree = git.run(repo, ['rev-parse', '--verify', `${commit}^{tree}`]);
        known.set(commit, tree);
        tree.catch(() => known.delete(commit));
      }
      return tree;
    },
  };
}
