// A task's new worktree made as `git worktree add -b <branch> <path> <commit>` makes it, in one git process instead of
// four. `worktree add` starts `git branch`, `git symbolic-ref` and `git reset --hard` of its own; here the desk writes
// what the first three write (the worktree's admin dir, its `.git` link and the branch's loose ref, each the way git
// writes them, the ref under git's own `.lock` protocol) and runs only the `reset --hard` that fills the files and the
// index. The result is the worktree git would have made: `git worktree list`, `prune`, `remove` and every later
// command see no difference. One is left out: the branch's reflog starts with its first commit, without git's
// "branch: Created from" line (the desk reads no reflog; the line would need the person's identity to write).
//
// Only for the plain case, decided from the files: a repository whose refs are loose files and packed-refs, whose
// config neither includes other files nor asks for what `worktree add` does more (sparse checkout, per-worktree
// config, relative links, another ref store), where the admin dir's name, the path and the branch are all free.
// Anything else, and any file-system error on the way, undoes what was made and returns `undefined`: the caller
// runs `git worktree add`, whose answer (and error message) is git's own.
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { GitRepo, GitResult, GitRunner } from './git-runner';
import { readPlainSync } from './plain-file';

/** The repository config's words that make `worktree add` do more than the plain case (lower case, as searched). */
const CONFIG_WORDS_FOR_GIT = ['include', 'sparse', 'worktreeconfig', 'refstorage', 'relativeworktrees', 'userelativepaths'];
const CONFIG_MAX_BYTES = 256 * 1024;
/** Read whole per task here; a larger packed-refs is left to git (as in branch-files.ts). */
const PACKED_REFS_MAX_BYTES = 1024 * 1024;

export interface WorktreeByFilesRequest {
  /** The repository's shared git dir (absolute, real). */
  commonDir: string;
  /** The new worktree's path (absolute, real, not there yet; its parent exists). */
  path: string;
  /** The admin dir git would choose for it (expected-git-dir.ts). */
  gitDir: string;
  branch: string;
  commit: string;
}

/**
 * Whether the plain case holds for the repository, from its config's text and its ref store. Pure: the texts read by
 * the caller (`undefined` for a config that is not a plain file).
 */
export function plainForWorktreeFiles(configText: string | undefined, hasReftable: boolean): boolean {
  if (configText === undefined || hasReftable) return false;
  const lower = configText.toLowerCase();
  return !CONFIG_WORDS_FOR_GIT.some((word) => lower.includes(word));
}

/**
 * A packed ref that stands in the way of `ref` as git's files backend sees it: `ref` itself, one of its parent names
 * (`refs/heads/desk` for `refs/heads/desk/x`), or a name below it. Pure.
 */
export function packedRefInTheWay(packedRefsText: string, ref: string): boolean {
  const parents = new Set<string>();
  for (let cut = ref.lastIndexOf('/'); cut > 'refs/heads'.length; cut = ref.lastIndexOf('/', cut - 1)) parents.add(ref.slice(0, cut));
  for (const line of packedRefsText.split('\n')) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const name = line.slice(line.indexOf(' ') + 1).replace(/\r$/, '');
    if (name === ref || parents.has(name) || name.startsWith(`${ref}/`)) return true;
  }
  return false;
}

/** Admin dirs git keeps for `name`'s worktrees: `name` itself or `name` and a number (git's own numbering). */
export function adminNameTaken(existing: readonly string[], name: string): boolean {
  return existing.some((entry) => entry === name || (entry.startsWith(name) && /^\d+$/.test(entry.slice(name.length))));
}

/**
 * What fills a registered worktree: its files and its index from the branch's commit. Not `--quiet`: simple-git waits
 * 50 ms more after a command that printed nothing (see commit-all.ts).
 */
export const CHECKOUT_ARGS: readonly string[] = ['reset', '--hard', '--no-recurse-submodules'];

/** A worktree git now knows of, on its branch, its files not yet checked out. */
export interface RegisteredWorktree {
  /** The worktree as its git commands name it. */
  readonly repo: GitRepo;
  /** What its `.git` file says: the link to its git dir, as written at the worktree's path. */
  readonly gitLink: string;
  /**
   * Checks the files out (`git reset --hard`, which also writes the index) and returns git's result; on a failure
   * everything registered is undone. Touches only this worktree's own files, index and branch: needs no lock on the
   * repository.
   */
  fill(git: GitRunner): Promise<GitResult>;
  /** Undoes the registration, as a failed `fill` does: for a checkout that failed in another process. */
  undo(): void;
}

/**
 * Registers the worktree (its admin dir, `.git` link and branch), or returns `undefined` when the plain case does not
 * hold or a file could not be written: nothing is left then, and the caller asks git. Writes with blocking calls: a
 * handful of small files, microseconds each where the file system is quick, where the thread pool would cost more.
 * Call it where `git worktree add` would run (under the repository's lock): it reads the other worktrees' names.
 */
export function registerWorktreeByFiles(request: WorktreeByFilesRequest): RegisteredWorktree | undefined {
  const { commonDir, path, gitDir, branch, commit } = request;
  const config = readPlainSync(join(commonDir, 'config'), CONFIG_MAX_BYTES);
  if (!plainForWorktreeFiles(typeof config === 'string' && config !== 'missing' && config !== 'odd' ? config : undefined, exists(join(commonDir, 'reftable')))) return undefined;
  const adminParent = dirname(gitDir);
  const made = new Undo();
  const gitLink = `gitdir: ${gitDir}\n`;
  try {
    mkdirSync(adminParent, { recursive: true });
    // A worktree registered under this name, or under it and a number (a worktree whose directory was deleted by
    // hand): git's own add tells that case apart and numbers the new one.
    if (adminNameTaken(readdirSync(adminParent), basename(gitDir))) return undefined;
    mkdirSync(path);
    made.add(() => rmSync(path, { recursive: true, force: true }));
    mkdirSync(gitDir);
    made.add(() => rmSync(gitDir, { recursive: true, force: true }));
    // First, naming a directory that exists: `git worktree prune` (another desk's, the person's) keeps such an admin
    // dir. git writes a `locked` file for that instead, which here would be two more inodes made and removed.
    writeFileSync(join(gitDir, 'gitdir'), `${join(path, '.git')}\n`);
    writeFileSync(join(gitDir, 'commondir'), '../..\n');
    writeFileSync(join(gitDir, 'HEAD'), `ref: refs/heads/${branch}\n`);
    writeFileSync(join(path, '.git'), gitLink);
    if (!createLooseBranch(commonDir, branch, commit, made)) {
      made.run();
      return undefined;
    }
  } catch {
    made.run();
    return undefined;
  }
  const repo: GitRepo = { gitDir, workTree: path, commonDir };
  return {
    repo,
    gitLink,
    async fill(git) {
      const filled = await git.exec(repo, CHECKOUT_ARGS);
      if (filled.exitCode !== 0) made.run();
      return filled;
    },
    undo: () => made.run(),
  };
}

/** Both steps at once: git's result of filling the worktree, or `undefined` (ask git), as registerWorktreeByFiles. */
export async function addWorktreeByFiles(git: GitRunner, request: WorktreeByFilesRequest): Promise<GitResult | undefined> {
  return registerWorktreeByFiles(request)?.fill(git);
}

/**
 * `refs/heads/<branch>` at `commit`, the way git's files backend creates it: `<ref>.lock` made exclusively, the ref
 * checked absent (loose and packed, no name in the way), the sha written and the lock renamed over the ref. false,
 * with nothing made, when anything is in the way: git's own add then says what.
 */
function createLooseBranch(commonDir: string, branch: string, commit: string, made: Undo): boolean {
  const name = `refs/heads/${branch}`;
  const packed = readPlainSync(join(commonDir, 'packed-refs'), PACKED_REFS_MAX_BYTES);
  if (packed === 'odd' || (packed !== 'missing' && packedRefInTheWay(packed, name))) return false;
  const ref = join(commonDir, ...name.split('/'));
  mkdirSync(dirname(ref), { recursive: true });
  const lock = `${ref}.lock`;
  const fd = openSync(lock, 'wx');
  let renamed = false;
  try {
    if (exists(ref)) return false;
    writeSync(fd, `${commit}\n`);
    closeSync(fd);
    renameSync(lock, ref);
    renamed = true;
    // Undone only while it still names this commit: a ref someone moved meanwhile is theirs.
    made.add(() => { if (readPlainSync(ref, 256) === `${commit}\n`) unlinkSync(ref); });
    return true;
  } finally {
    if (!renamed) {
      try { closeSync(fd); } catch { /* closed above */ }
      unlinkSync(lock);
    }
  }
}

function exists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/** What was made so far, undone last first; an undo that fails leaves the rest to run. */
class Undo {
  private readonly steps: (() => void)[] = [];

  add(step: () => void): void {
    this.steps.push(step);
  }

  run(): void {
    for (const step of this.steps.reverse()) {
      try { step(); } catch { /* the next prepare of the task retires what is left */ }
    }
    this.steps.length = 0;
  }
}
