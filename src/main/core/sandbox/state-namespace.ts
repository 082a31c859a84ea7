// A mount namespace that holds one task's overlays over its agent's state dirs while the task runs. bubblewrap 0.8 has
// no --overlay, so the desk mounts them itself: a small holder process makes a user and mount namespace of its own
// (`unshare`), mounts each overlay where the state dir is, and waits; every process of the task then enters that
// namespace (`nsenter`) before bubblewrap builds its sandbox from it. One namespace per task, so the agent, its
// terminals and setup commands share one mount of each layer (two mounts of one upper dir are undefined behaviour).
// The holder reads its stdin until the desk closes it or dies: the namespace and its mounts never outlive the desk.
import { spawn, type ChildProcess } from 'node:child_process';
import { findOnPath } from '../host/find-on-path';
import type { SpareProcesses } from '../host/spare-processes';

/** One overlay: `lower` (read-only, the person's) under `upper` (the task's), shown at `target`. */
export interface Overlay {
  lower: string;
  upper: string;
  work: string;
  target: string;
}

/** The programs the holder needs (util-linux), looked up once. */
export interface NamespaceTools {
  unshare: string;
  nsenter: string;
}

export interface StateNamespace {
  /** The holder's process: `/proc/<pid>/root` is the namespace's view of the file system, for the desk's own reads. */
  readonly pid: number;
  /** false once the holder has ended (closed, or killed from outside): its mounts are gone. */
  alive(): boolean;
  /** The program and arguments that run `command` inside the namespace. */
  enter(command: string, args: readonly string[]): { command: string; args: string[] };
  close(): void;
}

const READY = 'ready';
const START_LIMIT_MS = 10_000;

// $1…$4 of each overlay as positional words, never spliced into the script: a path is never read as shell. One line: a
// spare process reads a one-line launch itself, the quicker way (../host/spare-processes.ts). It then waits until the
// desk closes the pipe (or dies): the namespace goes, and its mounts with it.
const HOLDER_SCRIPT = [
  'while [ "$#" -gt 0 ]; do mount -t overlay overlay -o "lowerdir=$1,upperdir=$2,workdir=$3,userxattr" "$4" || exit 1; shift 4; done',
  `echo ${READY}`,
  'read _ || true',
].join('; ');

/** What the holder's programs need of the desk's environment: where they are, and the language of mount's words. */
export function holderEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const kept = ['PATH', 'LANG', 'LC_ALL', 'LC_MESSAGES'].flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]] as const]));
  return Object.fromEntries(kept);
}

export function findNamespaceTools(searchPath: string): NamespaceTools | undefined {
  const unshare = findOnPath('unshare', searchPath);
  const nsenter = findOnPath('nsenter', searchPath);
  return unshare && nsenter ? { unshare, nsenter } : undefined;
}

/**
 * Starts the holder and resolves once every overlay is mounted; rejects with the mount's own words when one fails.
 * `within`: the holder's mount namespace is a copy of that one's (a task's worktree layer, ../workspace/task-layers.ts),
 * so its processes see both sets of overlays while each upper dir stays mounted once.
 */
export async function openStateNamespace(tools: NamespaceTools, overlays: readonly Overlay[], within?: StateNamespace, spares?: Pick<SpareProcesses, 'take'>): Promise<StateNamespace> {
  const words = overlays.flatMap((overlay) => [overlay.lower, overlay.upper, overlay.work, overlay.target]);
  const holderArgs = ['sh', '-c', HOLDER_SCRIPT, 'desk-state', ...words];
  // -U -r: a user namespace where the desk's user is root, which may mount an overlay (Linux 5.11+); -m: its mounts.
  // Within another: entered as its root (no --preserve-credentials), which may make a mount namespace of its own there.
  const [command, args] = within
    ? [tools.nsenter, [`--target=${within.pid}`, '--user', '--mount', '--', tools.unshare, '--mount', ...holderArgs]]
    : [tools.unshare, ['--user', '--map-root-user', '--mount', ...holderArgs]];
  const env = holderEnvironment(process.env);
  // From a spare when one waits (its own process group; the holder is stopped by its pid): no fork of the desk now.
  const holder = spares?.take({ command, args, env }) ?? spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let ended = false;
  holder.on('exit', () => { ended = true; });
  await holderReady(holder);
  const pid = holder.pid;
  if (pid === undefined) throw new Error('the namespace holder has no process id');
  return {
    pid,
    alive: () => !ended,
    enter(command, args) {
      // --preserve-credentials: the desk's user stays itself (a setgroups to root is refused in this namespace);
      // bubblewrap's own user namespace then maps it back to the same id inside the sandbox.
      return { command: tools.nsenter, args: [`--target=${pid}`, '--user', '--mount', '--preserve-credentials', '--', command, ...args] };
    },
    close() {
      holder.stdin?.end();
      holder.kill('SIGKILL');
    },
  };
}

function holderReady(holder: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      holder.kill('SIGKILL');
      reject(new Error(why));
    };
    const timer = setTimeout(() => fail(`the overlay mounts took over ${START_LIMIT_MS / 1000} s`), START_LIMIT_MS);
    holder.on('error', (error) => fail(error.message));
    holder.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    holder.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes(READY)) {
        clearTimeout(timer);
        resolve();
      }
    });
    holder.on('exit', (code) => fail(stderr.trim() || `the namespace holder ended with code ${code}`));
  });
}
