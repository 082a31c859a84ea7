// Finds the git repository a person points the app at, and refuses anything that is not one.
import { realpath, stat } from 'node:fs/promises';
import { createGitRunner } from './git-runner';
import { NotAGitRepositoryError } from './git-errors';

/** The top level of the work tree holding `path` (symlinks resolved). */
export async function openRepository(path: string): Promise<{ root: string }> {
  const isDirectory = await stat(path).then((info) => info.isDirectory(), () => false);
  if (!isDirectory) throw new NotAGitRepositoryError(path, 'no such directory');
  const result = await createGitRunner().exec(path, ['rev-parse', '--show-toplevel']);
  const top = result.stdout.trim();
  // Inside .git or a bare repository git answers without a top level; neither has a work tree.
  if (result.exitCode !== 0 || top === '') throw new NotAGitRepositoryError(path, result.stderr.trim() || undefined);
  return { root: await realpath(top) };
}
