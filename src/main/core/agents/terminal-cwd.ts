// Where an agent's terminal may run: inside the task's worktree, judged after symlinks are resolved so a
// link inside the worktree cannot lead a command out of it.
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { INVALID_PARAMS, JsonRpcError } from '../../../shared/json-rpc-peer';
import { resolvedThrough } from './view-paths';

/** The real directory to run in; relative paths are taken against the worktree, none means the worktree. */
export async function resolveTerminalCwd(worktree: string, cwd: string | null | undefined, reach?: (path: string) => string): Promise<string> {
  // A layer's worktree is reached through its view (./view-paths.ts), and named as its processes name it.
  const root = reach ? worktree : await realpath(worktree);
  const wanted = resolve(worktree, cwd ?? '.');
  let real: string;
  try {
    real = reach ? resolvedThrough(wanted, root, reach) : await realpath(wanted);
  } catch {
    throw new JsonRpcError(INVALID_PARAMS, `Terminal cwd ${cwd} does not exist`);
  }
  if (!isInside(root, real)) {
    throw new JsonRpcError(INVALID_PARAMS, `Terminal cwd ${cwd} is outside the task's worktree`);
  }
  const stats = await stat(reach ? reach(real) : real).catch(() => undefined);
  if (!stats) throw new JsonRpcError(INVALID_PARAMS, `Terminal cwd ${cwd} does not exist`);
  if (!stats.isDirectory()) throw new JsonRpcError(INVALID_PARAMS, `Terminal cwd ${cwd} is not a directory`);
  return real;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}
