// The desk's git, run inside a task's namespace (../sandbox/task-layers.ts) for the commands that need a layered
// worktree's files: git resolves its work tree to a real path, and the desk's spelling of the merged view
// (`/proc/<pid>/root/<worktree>`) resolves to the desk's own, empty, folder. Inside, the worktree path is the view.
// Same settings, drivers and environment as the runner it wraps (its `invocation`); only the process is entered.
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { gitFailed } from './git-errors';
import type { GitCallOptions, GitRepo, GitResult, GitRunner } from './git-runner';

/** How a command enters the namespace (StateNamespace.enter), and where git is. */
export interface NamespaceEntry {
  enter(command: string, args: readonly string[]): { command: string; args: string[] };
  gitProgram: string;
  /** Who git runs as inside (see namespaceIdsOf), asked when git first runs there; absent or undefined: the namespace's root. */
  ids?: () => NamespaceIds | undefined;
}

/** A user and group for git inside the namespace, mapped by a user namespace of its own (`unshare --map-user`). */
export interface NamespaceIds {
  unshare: string;
  uid: number;
  gid: number;
}

/**
 * The desk's own ids for git inside a task's namespace, where the desk is root. git records each file's owner in the
 * index: a git that sees other owners than the git that wrote it reads every file again, and writes its owners for the
 * next git to trip on (the agent's, which sees the desk's). Undefined for a desk that runs as root (the namespace's
 * root is the desk's own user then), or where unshare cannot map a user (util-linux before 2.38): git then runs as the
 * namespace's root, as before.
 */
export function namespaceIdsOf(desk: { uid: number; gid: number } | undefined, unshare: string | undefined, mapsUsers: (unshare: string) => boolean): NamespaceIds | undefined {
  if (!desk || desk.uid === 0 || unshare === undefined || !mapsUsers(unshare)) return undefined;
  return { unshare, ...desk };
}

/** Whether this unshare knows `--map-user` (util-linux 2.38+): asked once, from its help. */
export function unshareMapsUsers(unshare: string): boolean {
  const help = spawnSync(unshare, ['--help'], { encoding: 'utf8', timeout: 5_000 });
  return help.status === 0 && help.stdout.includes('--map-user');
}

export function namespacedGit(base: GitRunner, entry: NamespaceEntry): GitRunner {
  const once = async (repo: GitRepo, args: readonly string[], options: GitCallOptions = {}): Promise<GitResult> => {
    const invocation = await base.invocation(repo, args, options.config ? { config: options.config } : undefined);
    const env = { ...invocation.env, ...(options.indexFile !== undefined && { GIT_INDEX_FILE: options.indexFile }) };
    // Entering a mount namespace moves the process to its root: git is told where to work again.
    const gitArgs = ['-C', repo.workTree ?? repo.gitDir, ...invocation.args];
    const ids = entry.ids?.();
    const entered = ids
      ? entry.enter(ids.unshare, ['--user', `--map-user=${ids.uid}`, `--map-group=${ids.gid}`, '--', entry.gitProgram, ...gitArgs])
      : entry.enter(entry.gitProgram, gitArgs);
    return new Promise((resolve, reject) => {
      const child = spawn(entered.command, entered.args, { env, cwd: repo.workTree ?? repo.gitDir, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] }) as ChildProcessByStdio<Writable | null, Readable, Readable>;
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
      child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
      child.once('error', reject);
      child.once('close', (code) => resolve({ exitCode: code ?? 1, stdout, stderr }));
      // A git that ends before reading its input (a refusal) closes the pipe: its exit code says what happened.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(options.input);
    });
  };
  const exec = async (repo: GitRepo, args: readonly string[], options: GitCallOptions = {}): Promise<GitResult> => {
    if (options.first) {
      const before = await once(repo, options.first, { ...options, input: undefined });
      if (before.exitCode !== 0) return { ...before, firstFailed: true };
    }
    return once(repo, args, options);
  };
  return {
    exec,
    async run(repo, args, options) {
      const result = await exec(repo, args, options);
      if (result.exitCode !== 0) throw gitFailed(result.firstFailed && options?.first ? options.first : args, result.exitCode, result.stderr || result.stdout);
      return result.stdout.replace(/\n$/, '');
    },
    blob: (repo, spec) => base.blob(repo, spec),
    configuredKeys: (repo) => base.configuredKeys(repo),
    invocation: (repo, args, options) => base.invocation(repo, args, options),
  };
}
