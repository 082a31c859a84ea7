// The bubblewrap command line that confines one process of a task, from a layout of what it may see. Pure.
import { sep } from 'node:path';

/**
 * One change to the read-only view of the whole file system: a directory replaced by an empty one, or by a
 * writable scratch directory of the task's (`scratch-dir`, from `source`), a file replaced by an empty one,
 * a place made writable, or a place made read-only again, or a symbolic link put back in a hidden directory.
 */
export interface Mount {
  kind: 'hide-dir' | 'scratch-dir' | 'hide-file' | 'symlink' | 'writable' | 'read-only';
  /** Absolute; must exist on the host (the layout only lists what exists). */
  path: string;
  /**
   * `scratch-dir`: the task's directory that takes the place of `path`; `read-only`: a file shown at `path` instead of its
   * own; `symlink`: where the link leads.
   */
  source?: string;
  /** Why the place is hidden or open, in words Settings shows. */
  why?: string;
}

/** What a confined process sees, where it starts, and its network. */
export interface SandboxLayout {
  /** The bubblewrap program. */
  bwrap: string;
  /** Where the process starts (the task's worktree). */
  cwd: string;
  mounts: readonly Mount[];
  /** `none`: only loopback; `host`: the desk's network (an allowlist then works through a proxy socket). */
  network: 'none' | 'host';
  /**
   * A new session (setsid) keeps a process from typing into the desk's terminal (TIOCSTI). Terminals run
   * under a pseudo-terminal that is theirs, whose controlling terminal they must keep.
   */
  newSession: boolean;
  /** Variables set for the process on top of those it inherits (the network bridge's settings for its preload). */
  env?: Readonly<Record<string, string>>;
  /**
   * Started inside the desk's own user namespace (./state-namespace.ts), where the desk's user has no id of its own: a
   * user namespace of the sandbox's gives the process its ids back.
   */
  ownIds?: { uid: number; gid: number };
}

const KIND_ORDER: Record<Mount['kind'], number> = { 'hide-dir': 0, 'scratch-dir': 0, 'hide-file': 1, symlink: 1, writable: 2, 'read-only': 3 };

/** `bwrap …options… -- command args`: run as the program with these arguments. */
export function bwrapArguments(layout: SandboxLayout, command: string, args: readonly string[]): string[] {
  const options = [
    // One PID namespace per process tree: when its first process dies, the kernel ends every other one in
    // it (setsid or not), and the whole sandbox dies with the desk.
    '--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try',
    // Run as root (CI, containers), bubblewrap would keep root's capabilities inside: enough to undo the mounts.
    '--cap-drop', 'ALL',
    ...(layout.network === 'none' ? ['--unshare-net'] : []),
    ...(layout.ownIds ? ['--unshare-user', '--uid', String(layout.ownIds.uid), '--gid', String(layout.ownIds.gid)] : []),
    ...(layout.newSession ? ['--new-session'] : []),
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    // A /proc of the sandbox's own: the desk's processes (and their environment) are not in it.
    '--proc', '/proc',
  ];
  for (const mount of orderedMounts(layout.mounts)) {
    switch (mount.kind) {
      case 'hide-dir': options.push('--tmpfs', mount.path); break;
      // Without a source, an empty directory: never the place itself made writable.
      case 'scratch-dir': options.push(...(mount.source === undefined ? ['--tmpfs', mount.path] : ['--bind', mount.source, mount.path])); break;
      case 'hide-file': options.push('--ro-bind', '/dev/null', mount.path); break;
      case 'symlink': if (mount.source !== undefined) options.push('--symlink', mount.source, mount.path); break;
      case 'writable': options.push('--bind', mount.path, mount.path); break;
      case 'read-only': options.push('--ro-bind', mount.source ?? mount.path, mount.path); break;
    }
  }
  for (const [name, value] of Object.entries(layout.env ?? {})) options.push('--setenv', name, value);
  options.push('--chdir', layout.cwd, '--');
  return [...options, command, ...args];
}

/**
 * A later mount covers what an earlier one put at or below its path, so parents go first (the data dir
 * hidden, then the worktree inside it opened, then its `.git` closed again); at one path, hiding comes
 * before opening and opening before closing.
 */
export function orderedMounts(mounts: readonly Mount[]): Mount[] {
  // Each path's depth counted once, not split again in every comparison of the sort (the sort is stable either way).
  const keyed = mounts.map((mount) => ({ mount, depth: mount.path.split(sep).filter(Boolean).length }));
  keyed.sort((a, b) => a.depth - b.depth || KIND_ORDER[a.mount.kind] - KIND_ORDER[b.mount.kind]);
  return keyed.map(({ mount }) => mount);
}
