// Where an agent's terminal may run: inside the task's worktree, judged after symlinks are resolved so a
// link inside the worktree cannot lead a command out of it.
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { INVALID_PARAMS, JsonRpcError } from '../../../shared/json-rpc-peer';

/** The real directory to run in; relative paths are taken against the worktree, none means the worktree. */
export async function resolveTerminalCwd(worktree: string, cwd: string | null | undefined): Promise<string> {
  const root = await realpath(worktree);
  const wanted = resolve(worktree, cwd ?? '.');
  let real: string;
  try {
    real = await realpath(wanted);
  } catch {
    throw new JsonRpcError(INVALID_PARAMS, `Terminal cwd ${cwd} does not exist`);
  }
  if (!isInside(root, real)) {
    throw new JsonRpcError(INVALID_PARAMS, `Terminal cwd ${cwd} is outside the task's worktree`);
  }
  if (!(await stat(real)).isDirectory()) throw new JsonRpcError(INVALID_PARAMS, `Terminal cwd ${cwd} is not a directory`);
  return real;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}
