// Read-only facts about a task's commits for clients that list and download its files (Agent Protocol
// artifacts): which files a commit range changed, and a file's bytes at a commit.
import { createGitRunner, type GitRepo, type GitRunner } from './git-runner';
import { checkoutOf, openRepository } from './repository';

export interface ChangedFiles {
  /** Files that exist at `head` and differ from `base` (added, modified, renamed to…); deletions left out. */
  between(base: string, head: string): Promise<string[]>;
  /** Files `commit` changed against its parent that still exist in it. */
  ofCommit(commit: string): Promise<string[]>;
  /** The bytes of `path` at `commit`, or undefined when the commit has no such file. */
  read(commit: string, path: string): Promise<Buffer | undefined>;
}

/** Commits never change, so what a pair of them changed is remembered; refs are never cached. */
const CACHE_LIMIT = 2000;
const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?\^?$/;

export function createChangedFiles(repoRoot: string, git: GitRunner = createGitRunner()): ChangedFiles {
  const cache = new Map<string, string[]>();
  // The git dir is found once, from the top level the person named, and named on every command.
  let repository: Promise<GitRepo> | undefined;
  const repo = (): Promise<GitRepo> => {
    repository ??= openRepository(repoRoot).then(checkoutOf).catch((error: unknown) => {
      repository = undefined;
      throw error;
    });
    return repository;
  };

  async function cached(key: string, immutable: boolean, list: () => Promise<string[]>): Promise<string[]> {
    const known = cache.get(key);
    if (known) return known;
    const files = await list();
    if (immutable) {
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
      cache.set(key, files);
    }
    return files;
  }

  // -z: paths exactly as stored (no quoting of unusual names); --no-renames: a renamed file counts as added.
  const names = (output: string) => output.split('\0').filter((name) => name !== '');

  return {
    between: (base, head) => cached(`${base}..${head}`, COMMIT.test(base) && COMMIT.test(head), async () =>
      names(await git.run(await repo(), ['diff', '--no-ext-diff', '--no-textconv', '--name-only', '-z', '--no-renames', '--diff-filter=d', base, head, '--']))),

    ofCommit: (commit) => cached(commit, COMMIT.test(commit), async () =>
      names(await git.run(await repo(), ['diff-tree', '--no-ext-diff', '--no-textconv', '-r', '--root', '--no-commit-id', '--name-only', '-z', '--no-renames', '--diff-filter=d', commit]))),

    async read(commit, path) {
      const spec = `${commit}:${path}`;
      const exists = await git.exec(await repo(), ['cat-file', '-e', spec]);
      if (exists.exitCode !== 0) return undefined;
      // File contents may be binary, so they are read as bytes, not text.
      return git.blob(await repo(), spec);
    },
  };
}
