// Paths of a worktree the desk reaches other than by its own path: a layer mounted in a namespace of the task's
// (../sandbox/task-layers.ts), which the desk reads through the holder (`/proc/<pid>/root/...`). realpath(3) would
// resolve links in the desk's namespace, where the worktree's folder is empty: links are resolved here step by step,
// through the view, as the task's processes see them.
import { lstatSync, readlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

const within = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/** Links followed at most while resolving one path, as the kernel's own limit. */
const MAX_LINKS = 40;

/**
 * `path` with every link resolved as the agent's namespace sees it, reading through `reach` within `root`; the part
 * from the first name that does not exist is kept as written. Blocking calls, as realpath(3) is: they only look up
 * names, microseconds each, and the policy's decision (../governance/policy.ts) is synchronous.
 */
export function resolvedThrough(path: string, root: string, reach: (path: string) => string): string {
  const seen = (at: string) => (at === root || within(root, at) ? reach(at) : at);
  const pending = path.split(sep).filter((part) => part !== '');
  let resolved: string = sep;
  let links = 0;
  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (name === '.') continue;
    if (name === '..') {
      resolved = dirname(resolved);
      continue;
    }
    const next = join(resolved, name);
    let stat;
    try {
      stat = lstatSync(seen(next));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    }
    if (!stat) return join(next, ...pending);
    if (!stat.isSymbolicLink()) {
      resolved = next;
      continue;
    }
    if (++links > MAX_LINKS) throw Object.assign(new Error(`Too many links in ${path}`), { code: 'ELOOP' });
    const target = readlinkSync(seen(next));
    pending.unshift(...target.split(sep).filter((part) => part !== ''));
    if (isAbsolute(target)) resolved = sep;
  }
  return resolved;
}
