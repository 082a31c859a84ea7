// Files an agent keeps for itself by its vendor's convention (local settings that may hold standing permissions, local
// memory): they stay in the worktree but never enter a task's commit, nor count as its uncommitted work.
import { lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitRepo, GitRunner } from './git-runner';

export interface LocalFile {
  /** Relative to the top of the worktree, with `/`. */
  path: string;
  /** What it is, for the activity: "Claude Code's local settings". */
  what: string;
}

/**
 * Only files that are local by their vendor's own convention, at the top of the worktree (the project root the agent is
 * started in). Claude Code (also as Claude Agent) keeps project settings it is told to remember, "Always allow" answers
 * among them, in `.claude/settings.local.json`, and personal notes in `CLAUDE.local.md`, both meant to stay out of git.
 * The other known agents keep nothing of the kind in the project: Gemini CLI's and Qwen Code's `.gemini/settings.json` /
 * `.qwen/settings.json`, OpenCode's `opencode.json` and Codex's project config are meant to be shared, and Copilot keeps
 * its remembered permissions in its home.
 */
export const VENDOR_LOCAL_FILES: readonly LocalFile[] = [
  { path: '.claude/settings.local.json', what: "Claude Code's local settings" },
  { path: 'CLAUDE.local.md', what: "Claude Code's local notes" },
];

const ONLY_LOCAL_FILES = VENDOR_LOCAL_FILES.map((file) => `:(top,literal)${file.path}`);

/** Pathspecs (after `--`) for the whole worktree but the vendor-local files: for `git add` and `git status`. */
export const ALL_BUT_LOCAL_FILES: readonly string[] = ['--', ':/', ...VENDOR_LOCAL_FILES.map((file) => `:(top,literal,exclude)${file.path}`)];

interface LocalStatus { file: LocalFile; staged: boolean; inHead: boolean; untracked: boolean }

/** The vendor-local files git would take as changes (new, changed or deleted against HEAD; not those the repository ignores). */
async function localStatus(git: GitRunner, worktree: GitRepo): Promise<LocalStatus[]> {
  const text = await git.run(worktree, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all', '--', ...ONLY_LOCAL_FILES]);
  return text.split('\0').filter((entry) => entry.length > 3).flatMap((entry) => {
    const file = VENDOR_LOCAL_FILES.find((known) => known.path === entry.slice(3));
    if (!file) return [];
    const index = entry[0];
    const untracked = index === '?';
    return [{ file, untracked, staged: !untracked && index !== ' ', inHead: !untracked && index !== 'A' }];
  });
}

/** Those that exist at the top of `workTree`. */
async function presentIn(workTree: string): Promise<LocalFile[]> {
  const found = await Promise.all(VENDOR_LOCAL_FILES.map((file) => lstat(join(workTree, file.path)).then(() => file, () => undefined)));
  return found.filter((file) => file !== undefined);
}

/** Those a task wrote to its layer (../sandbox/task-layers.ts): plain files at the top of its upper dir. */
export async function localFilesWritten(upperDir: string): Promise<LocalFile[]> {
  const found = await Promise.all(VENDOR_LOCAL_FILES.map((file) => lstat(join(upperDir, file.path)).then((stat) => (stat.isFile() ? file : undefined), () => undefined)));
  return found.filter((file) => file !== undefined);
}

/**
 * Before a commit: the vendor-local files in the worktree that the commit leaves out (it never stages them, see
 * commit-all.ts), with any the index holds already (an unconfined agent's own `git add`) taken out of it again. One
 * tracked in the base stays as the base has it: the commit keeps the base's version, the worktree the agent's.
 */
export async function leaveOutLocalFiles(git: GitRunner, worktree: () => Promise<GitRepo & { workTree: string }>, workTree: string): Promise<LocalFile[]> {
  // Most turns leave none: a few lstat calls, and the worktree is not even checked (its commit checks it anyway).
  const present = await presentIn(workTree);
  if (present.length === 0) return [];
  const repo = await worktree();
  const changed = await localStatus(git, repo);
  const staged = changed.filter((entry) => entry.staged);
  if (staged.length > 0) await git.run(repo, ['reset', '-q', '--', ...staged.map((entry) => `:(top,literal)${entry.file.path}`)]);
  return changed.map((entry) => entry.file);
}

/**
 * Before a worktree is removed: its vendor-local files go with it (the agent's, never committed), so that git has no
 * untracked or changed file to refuse the removal for. One tracked in the base is put back as the base has it. Says
 * whether there were any.
 */
export async function discardLocalFiles(git: GitRunner, worktree: GitRepo & { workTree: string }): Promise<boolean> {
  const changed = await localStatus(git, worktree);
  if (changed.length === 0) return false;
  const spec = (entries: readonly LocalStatus[]) => entries.map((entry) => `:(top,literal)${entry.file.path}`);
  const staged = changed.filter((entry) => entry.staged);
  if (staged.length > 0) await git.run(worktree, ['reset', '-q', '--', ...spec(staged)]);
  const tracked = changed.filter((entry) => entry.inHead);
  if (tracked.length > 0) await git.run(worktree, ['checkout', '-q', 'HEAD', '--', ...spec(tracked)]);
  await Promise.all(changed.filter((entry) => !entry.inHead).map((entry) => rm(join(worktree.workTree, entry.file.path), { force: true })));
  return true;
}

/** The vendor-local files any commit in `start..tip` adds or changes: the agent committed them itself. */
export async function localFilesCommitted(git: GitRunner, repo: GitRepo, start: string, tip: string): Promise<LocalFile[]> {
  const text = await git.run(repo, ['log', '--format=', '--name-only', '--no-renames', `${start}..${tip}`, '--', ...VENDOR_LOCAL_FILES.map((file) => file.path)]);
  const named = new Set(text.split('\n').filter((line) => line !== ''));
  return VENDOR_LOCAL_FILES.filter((file) => named.has(file.path));
}

/** "Left out of the commit: …" for the activity. */
export function leftOutText(files: readonly LocalFile[]): string {
  return `Left out of the commit: ${files.map((file) => `${file.path} (${file.what}, kept out of your repository)`).join(', ')}.`;
}
