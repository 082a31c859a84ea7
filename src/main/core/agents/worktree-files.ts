// The agent's file access (ACP fs/*), confined to the task's worktree after resolving symlinks, and again where the
// open lands: the agent runs beside the desk and may swap a link in between the check and the open.
import { constants, realpathSync } from 'node:fs';
import { mkdir, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { resolvedThrough } from './view-paths';
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

/**
 * The real path of `path` (or of its nearest existing ancestor plus the rest), so symlinks cannot lead outside.
 * realpath(3) with a blocking call: it only looks up names (no open, so nothing planted can make it wait), microseconds
 * each, where a trip through the thread pool costs the desk ~40 µs of CPU; an agent's write asks two or three.
 */
function realTarget(path: string): string {
  let existing = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync.native(existing), ...rest.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const parent = dirname(existing);
      if (parent === existing) return path;
      rest.push(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      existing = parent;
    }
  }
}

export interface WorktreeFilesOptions {
  /** Runs between a path's check and its opening, where an agent racing the desk would swap a link in (for tests). */
  betweenCheckAndOpen?: (target: string) => Promise<void>;
  /**
   * Where the desk reaches a path of the worktree when the agent's view of it is not the desk's: a worktree that is a
   * layer, mounted in a namespace of its own (../sandbox/task-layers.ts). Links are then resolved step by step through
   * it, as the agent's namespace resolves them (realpath(3) would resolve them in the desk's), and `worktree` is taken
   * as the agent spells it.
   */
  reach?: (path: string) => string;
}

export type WorktreeFiles = ReturnType<typeof createWorktreeFiles>;

export function createWorktreeFiles(worktree: string, options: WorktreeFilesOptions = {}) {
  // Resolved at the first access, not at creation: a promise nobody awaits would reject unhandled (and end the desk)
  // when the worktree is gone before the agent ever touched a file.
  let rootPromise: Promise<string> | undefined;

  const { reach } = options;
  const rootOf = () => (rootPromise ??= reach ? Promise.resolve(worktree) : realpath(worktree));
  /** Where the desk opens a confined path. */
  const opened = (target: string) => (reach ? reach(target) : target);

  async function confine(path: string): Promise<string> {
    const absolute = isAbsolute(path) ? path : resolve(worktree, path);
    const root = await rootOf();
    const target = reach ? resolvedThrough(absolute, root, reach) : realTarget(absolute);
    if (!within(root, target)) throw new OutsideWorktreeError(path);
    return target;
  }

  /** Opens `path` never through a link at its end, and refuses it when the open landed outside (a folder swapped meanwhile). */
  async function openConfined(path: string, flags: number): Promise<FileHandle> {
    const target = await confine(path);
    await options.betweenCheckAndOpen?.(target);
    let handle: FileHandle;
    try {
      handle = await open(opened(target), flags | constants.O_NOFOLLOW, 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new OutsideWorktreeError(path);
      throw error;
    }
    // Where the open really landed, as the kernel says (Linux; elsewhere the check above and O_NOFOLLOW stand). In a
    // layer's namespace the kernel spells it as that namespace does: as the agent names it.
    const landed = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (landed !== undefined && !within(await rootOf(), landed)) {
      await handle.close();
      throw new OutsideWorktreeError(path);
    }
    return handle;
  }

  return {
    async readTextFile({ path, line, limit }: { path: string; line?: number; limit?: number }): Promise<string> {
      const handle = await openConfined(path, constants.O_RDONLY);
      const text = await handle.readFile('utf8').finally(() => handle.close());
      if (line === undefined && limit === undefined) return text;
      const lines = text.split('\n');
      const start = (line ?? 1) - 1;
      return lines.slice(start, limit === undefined ? undefined : start + limit).join('\n');
    },
    async writeTextFile({ path, content }: { path: string; content: string }): Promise<void> {
      await mkdir(opened(dirname(await confine(path))), { recursive: true });
      // Truncated only once the open is known to be inside: a file outside is never cut, even for a moment.
      const handle = await openConfined(path, constants.O_WRONLY | constants.O_CREAT);
      try {
        await handle.truncate(0);
        await handle.writeFile(content, 'utf8');
      } finally {
        await handle.close();
      }
    },
  };
}
