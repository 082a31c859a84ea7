// A layered worktree's git index, brought along with the desk's commits only when something is about to use it: the
// next turn, a check, a dev server, an update from the base. A one-turn task never pays for it, and the commit itself
// reads no index, so its cost does not grow with the repository (the index is 19 MB at 200,000 files).
import { readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runGitScript } from './git-pipe';
import type { GitRepo, GitRunner } from './git-runner';

/** In the layer's own folder (out of the task's reach): the first commit the desk made since the index last matched its branch. */
const BEHIND_NOTE = 'index-behind-since';
const OBJECT_NAME = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** Notes that the desk committed `commit` while the index stayed at its parent; an earlier note stands (the index is further behind). */
export async function noteIndexBehind(layerDir: string, commit: string): Promise<void> {
  if (await indexBehindSince(layerDir) !== undefined) return;
  const note = join(layerDir, BEHIND_NOTE);
  // Written whole or not at all: a half note would name no commit.
  await writeFile(`${note}.new`, `${commit}\n`);
  await rename(`${note}.new`, note);
}

/** The first commit the index has not been brought to, or undefined when it matches the branch. */
export async function indexBehindSince(layerDir: string): Promise<string | undefined> {
  // Blocking: asked before every run (usually of a file that is not there), microseconds where a trip through the
  // thread pool costs a few hundred.
  let text = '';
  try {
    text = readFileSync(join(layerDir, BEHIND_NOTE), 'utf8');
  } catch {
    // No note: the index is not behind.
  }
  const commit = text.trim();
  return OBJECT_NAME.test(commit) ? commit : undefined;
}

/**
 * Brings the worktree's index from the parent of the first commit it missed to the branch's head: git's two-tree merge
 * of the index alone rewrites the entries that differ and keeps the stat data of the rest, and what the agent staged
 * and the desk then committed stays as it is. An index the merge refuses (the agent staged something the branch has
 * otherwise) gets the changed entries one by one. One `sh` (the runner waits 50 ms after a command that prints nothing).
 */
export async function syncLayerIndex(git: GitRunner, repo: GitRepo, layerDir: string): Promise<void> {
  const since = await indexBehindSince(layerDir);
  if (since === undefined) return;
  const merged = await runGitScript(git, repo, ['read-tree'], 'git read-tree -m -i "$1^" HEAD </dev/null && echo synced', [since]);
  if (merged.exitCode !== 0) await syncEntries(git, repo, since);
  await rm(join(layerDir, BEHIND_NOTE), { force: true });
}

/** The entries that differ between `since`'s parent and the head, written into the index (their stat data left for git to fill). */
async function syncEntries(git: GitRunner, repo: GitRepo, since: string): Promise<void> {
  const raw = await git.run(repo, ['diff-tree', '-r', '-z', '--no-renames', '--raw', `${since}^`, 'HEAD']);
  const fields = raw.split('\0');
  const lines: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    // ":<old mode> <new mode> <old sha> <new sha> <status>" then the path.
    const [, newMode, , newSha, status] = (fields[i] ?? '').slice(1).split(' ');
    const path = fields[i + 1] ?? '';
    lines.push(status === 'D' ? `0 ${'0'.repeat(newSha?.length ?? 40)}\t${path}` : `${newMode} ${newSha}\t${path}`);
  }
  if (lines.length > 0) await git.run(repo, ['update-index', '-z', '--index-info'], { input: `${lines.join('\0')}\0` });
}
