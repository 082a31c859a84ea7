// Which places a task's sandbox hides, opens and keeps read-only, from the facts of one task. Pure: the
// file system is asked through `kindOf`, so tests can lay out any machine.
import { isAbsolute, join, relative, sep } from 'node:path';
import type { BorrowedFile } from '../git/task-git-dir';
import type { Mount } from './bwrap-arguments';

/** Credentials under the home directory that no agent reads unless the policy grants it. */
export const HIDDEN_HOME_DIRS = [
  '.ssh', '.aws', '.gnupg', '.config/gh', '.docker', '.kube', '.azure', '.config/gcloud', '.password-store',
  '.local/share/keyrings', '.mozilla', '.config/google-chrome', '.config/chromium',
];
export const HIDDEN_HOME_FILES = ['.netrc', '.git-credentials', '.npmrc', '.pypirc', '.config/hub', '.pgpass', '.my.cnf'];

/**
 * Where programs listen on unix sockets (ssh and gpg agents, D-Bus, Docker, the X server): a socket can be
 * connected to on a read-only mount, so these are hidden, not just read-only.
 */
export const SOCKET_DIRS = ['/run', '/var/run', '/tmp/.X11-unix', '/tmp/.ICE-unix'];

export interface LayoutFacts {
  home: string;
  /** The desk's data dir: token, database, every task's worktree. */
  dataDir: string;
  /** The repository's git dir shared by all its worktrees (objects, refs, config). */
  gitCommonDir: string;
  /** The task's own git dir for this run (../git/task-git-dir.ts), which the worktree's `.git` names inside. */
  taskGitDir: { dir: string; link: string; readOnly: readonly string[]; borrowed?: readonly BorrowedFile[] };
  worktree: string;
  tempDir: string;
  /** The agent's state dirs (`~/…` or absolute). */
  stateDirs: readonly string[];
  /** Hidden places the policy lets the agent read after all (`~/…` or absolute). */
  readablePaths: readonly string[];
  /** More writable places (the network proxy's socket dir). */
  extraWritable?: readonly string[];
  /** More places to keep readable inside hidden ones (the resolver's config under /run). */
  keepReadable?: readonly string[];
  /** `dir`, `file` (anything else that exists), or undefined when nothing is there. */
  kindOf(path: string): 'dir' | 'file' | undefined;
}

export function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

export function sandboxMounts(facts: LayoutFacts): Mount[] {
  const home = (path: string) => expandHome(path, facts.home);
  const grants = facts.readablePaths.map(home);
  const granted = (path: string) => grants.some((grant) => isWithin(path, grant));
  const exists = (path: string) => facts.kindOf(path) !== undefined;
  const mounts: Mount[] = [];

  const hiddenDirs = [
    facts.dataDir,
    ...HIDDEN_HOME_DIRS.map((dir) => join(facts.home, dir)),
    ...SOCKET_DIRS,
    // The person's refs, index, HEAD, stash, reflogs and other worktrees' git dirs: the agent's git works in the
    // task's own git dir, which borrows the objects (read-only, below).
    facts.gitCommonDir,
  ];
  for (const dir of hiddenDirs) if (facts.kindOf(dir) === 'dir' && !granted(dir)) mounts.push({ kind: 'hide-dir', path: dir });
  for (const file of HIDDEN_HOME_FILES.map((name) => join(facts.home, name))) {
    if (facts.kindOf(file) === 'file' && !granted(file)) mounts.push({ kind: 'hide-file', path: file });
  }

  const writable = [facts.taskGitDir.dir, facts.worktree, facts.tempDir, ...facts.stateDirs.map(home), ...(facts.extraWritable ?? [])];
  for (const path of writable) if (exists(path)) mounts.push({ kind: 'writable', path });

  const readOnly = [
    // The objects every commit is made of, and what makes git run programs or changes how it reads the
    // repository (the task's git dir includes the config and runs the hooks): seen, never changed.
    join(facts.gitCommonDir, 'objects'), join(facts.gitCommonDir, 'config'), join(facts.gitCommonDir, 'hooks'), join(facts.gitCommonDir, 'info'),
    ...facts.taskGitDir.readOnly,
    // Granted places inside hidden ones come back read-only.
    ...grants.filter((grant) => hiddenDirs.some((dir) => isWithin(grant, dir) && grant !== dir)),
    ...(facts.keepReadable ?? []),
  ];
  for (const path of readOnly) if (exists(path)) mounts.push({ kind: 'read-only', path });
  // The worktree's shared index, lent into the task's git dir: read there, never written.
  for (const file of facts.taskGitDir.borrowed ?? []) mounts.push({ kind: 'read-only', path: file.path, source: file.source });
  // The worktree's `.git` names the task's git dir in here, and cannot be rewritten to name another.
  const dotGit = join(facts.worktree, '.git');
  if (exists(dotGit)) mounts.push({ kind: 'read-only', path: dotGit, source: facts.taskGitDir.link });
  return mounts;
}

/** True when `path` is `parent` or inside it (lexically; both absolute and normalised). */
export function isWithin(path: string, parent: string): boolean {
  // Two plain POSIX paths are compared as text: path.relative resolves and normalises both on every call, and a task's
  // sandbox asks this a few hundred times. Anything else (Windows, whose paths compare without case; a `.`, `..`, `//`
  // or trailing slash) takes path.relative's answer.
  if (sep === '/' && plainPosix(path) && plainPosix(parent)) return path === parent || parent === '/' || path.startsWith(`${parent}/`);
  const rel = relative(parent, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Absolute, and already in path.normalize's form: no empty, `.` or `..` segment, no trailing slash but the root's. */
function plainPosix(path: string): boolean {
  if (path === '/') return true;
  return path.startsWith('/') && !path.endsWith('/') && !path.includes('//') && !DOT_SEGMENT.test(path);
}

const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
