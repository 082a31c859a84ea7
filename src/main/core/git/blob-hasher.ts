// Writes files' contents as blobs with one `git hash-object -w --stdin-paths` process for all of them, and returns
// their names in the same order.
import { openGitPipe } from './git-pipe';
import type { GitRepo, GitRunner } from './git-runner';

/**
 * `paths` are absolute (bytes). The contents are taken as they are on disk (`--no-filters`): git is run without a work
 * tree (it cannot be given the overlay, see ignore-check.ts), so no attribute-driven conversion applies, as with the
 * desk's disarmed filter drivers; a repository that converts line endings on `git add` (text/eol attributes,
 * core.autocrlf) would get the bytes as written.
 */
export async function hashFiles(git: GitRunner, repo: GitRepo, paths: readonly Buffer[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const pipe = await openGitPipe(git, { gitDir: repo.gitDir, ...(repo.commonDir !== undefined && { commonDir: repo.commonDir }) }, ['hash-object', '-w', '--no-filters', '--stdin-paths']);
  try {
    pipe.write(Buffer.concat(paths.map((path) => Buffer.concat([quoted(path), Buffer.from('\n')]))));
    const names = await Promise.all(paths.map(() => pipe.readUntil(0x0a)));
    await pipe.finish();
    return names.map((name) => name.toString('latin1'));
  } catch (error) {
    pipe.kill();
    throw error;
  }
}

/** A path as one line of --stdin-paths: C-quoted (git unquotes a line that starts with `"`) when it needs to be. */
function quoted(path: Buffer): Buffer {
  if (!path.includes(0x0a) && path[0] !== 0x22) return path;
  const text = path.toString('latin1').replace(/[\\"\n]/g, (char) => (char === '\n' ? '\\n' : `\\${char}`));
  return Buffer.from(`"${text}"`, 'latin1');
}
