// The agent's file access (ACP fs/*), confined to the task's worktree after resolving symlinks.
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { INVALID_PARAMS, JsonRpcError } from '../../../shared/json-rpc-peer';

/** A request to touch a file outside the worktree; answered to the agent as an error and logged. */
export class OutsideWorktreeError extends JsonRpcError {
  constructor(readonly path: string) {
    super(INVALID_PARAMS, `Access denied: ${path} is outside the task's worktree`);
  }
}

const within = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/** The real path of `path` (or of its nearest existing ancestor plus the rest), so symlinks cannot lead outside. */
async function realTarget(path: string): Promise<string> {
  let existing = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(await realpath(existing), ...rest.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const parent = dirname(existing);
      if (parent === existing) return path;
      rest.push(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      existing = parent;
    }
  }
}

export function createWorktreeFiles(worktree: string) {
  // Resolved at the first access, not at creation: a promise nobody awaits would reject unhandled (and end the desk)
  // when the worktree is gone before the agent ever touched a file.
  let rootPromise: Promise<string> | undefined;

  async function confine(path: string): Promise<string> {
    const absolute = isAbsolute(path) ? path : resolve(worktree, path);
    const [root, target] = await Promise.all([rootPromise ??= realpath(worktree), realTarget(absolute)]);
    if (!within(root, target)) throw new OutsideWorktreeError(path);
    return target;
  }

  return {
    async readTextFile({ path, line, limit }: { path: string; line?: number; limit?: number }): Promise<string> {
      const text = await readFile(await confine(path), 'utf8');
      if (line === undefined && limit === undefined) return text;
      const lines = text.split('\n');
      const start = (line ?? 1) - 1;
      return lines.slice(start, limit === undefined ? undefined : start + limit).join('\n');
    },
    async writeTextFile({ path, content }: { path: string; content: string }): Promise<void> {
      const target = await confine(path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content, 'utf8');
    },
  };
}
