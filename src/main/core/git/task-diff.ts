// What a task's branch changed against the commit its worktree started from, file by file, with texts to show.
import type { FileDiff, TaskDiff } from '../../../shared/review';
import type { ChangeCount } from '../../../shared/task';
import type { GitRepo, GitRunner } from './git-runner';

/** Files larger than this are listed with their counts, but without texts. */
const MAX_SHOWN_BYTES = 512 * 1024;

const STATUS: Record<string, FileDiff['status']> = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed', C: 'copied', T: 'type-changed' };

export async function taskDiff(git: GitRunner, repoRoot: GitRepo, base: string, head: string): Promise<TaskDiff> {
  const [baseCommit, headCommit] = await Promise.all([git.run(repoRoot, ['rev-parse', base]), git.run(repoRoot, ['rev-parse', head])]);
  const entries = parseNameStatus(await git.run(repoRoot, ['diff', '--no-ext-diff', '--no-textconv', '--name-status', '-z', '-M', baseCommit, headCommit]));
  const counts = parseNumstat(await git.run(repoRoot, ['diff', '--no-ext-diff', '--no-textconv', '--numstat', '-z', '-M', baseCommit, headCommit]));
  const files: FileDiff[] = [];
  for (const entry of entries) {
    const count = counts.get(entry.path) ?? { additions: 0, deletions: 0, binary: false };
    const show = async (commit: string, path: string | undefined): Promise<{ text?: string; tooLarge: boolean }> => {
      if (path === undefined || count.binary) return { tooLarge: false };
      const size = Number(await git.run(repoRoot, ['cat-file', '-s', `${commit}:${path}`]));
      if (size > MAX_SHOWN_BYTES) return { tooLarge: true };
      return { text: await git.run(repoRoot, ['show', '--no-textconv', `${commit}:${path}`]).then((t) => t, () => ''), tooLarge: false };
    };
    const old = await show(baseCommit, entry.status === 'added' ? undefined : (entry.oldPath ?? entry.path));
    const neu = await show(headCommit, entry.status === 'deleted' ? undefined : entry.path);
    files.push({
      path: entry.path,
      ...(entry.oldPath !== undefined && { oldPath: entry.oldPath }),
      status: entry.status,
      ...count,
      ...(old.text !== undefined && { oldText: withNewline(old.text) }),
      ...(neu.text !== undefined && { newText: withNewline(neu.text) }),
      tooLarge: old.tooLarge || neu.tooLarge,
    });
  }
  return { base: baseCommit, head: headCommit, files };
}

/** A changed file as the attention list reads it: status and paths, texts only where asked. */
export type ChangedFile = Pick<FileDiff, 'path' | 'oldPath' | 'status' | 'oldText' | 'newText' | 'binary' | 'tooLarge'>;

/** What one commit changed against another, in one git run: each file's status and paths, and the totals. */
export interface DiffSummary {
  entries: NameStatus[];
  count: ChangeCount;
}

/**
 * One `git diff --raw --numstat` of two full commit ids (no rev-parse): the names the attention list reads and the totals
 * a card shows. The runner reads it as a turn commits; review reads it again for the same commits (./diff-summaries.ts).
 */
export async function diffSummary(git: GitRunner, repoRoot: GitRepo, base: string, head: string): Promise<DiffSummary> {
  const output = await git.run(repoRoot, ['diff', '--no-ext-diff', '--no-textconv', '--raw', '--numstat', '-z', '-M', base, head, '--']);
  const counts = parseNumstat(output);
  let additions = 0;
  let deletions = 0;
  for (const count of counts.values()) {
    additions += count.additions;
    deletions += count.deletions;
  }
  return { entries: parseRaw(output), count: { files: counts.size, additions, deletions } };
}

/**
 * What `head` changed against `base` with as little work as the attention list needs: the names (`entries`, from
 * diffSummary), then the texts of the few paths `textsFor` accepts.
 */
export async function changedFiles(git: GitRunner, repoRoot: GitRepo, entries: readonly NameStatus[], base: string, head: string, textsFor: (path: string) => boolean): Promise<ChangedFile[]> {
  const text = async (commit: string, path: string | undefined): Promise<string | undefined> => {
    if (path === undefined) return undefined;
    const shown = await git.run(repoRoot, ['show', '--no-textconv', `${commit}:${path}`]).then((t) => t, () => undefined);
    return shown === undefined ? undefined : withNewline(shown);
  };
  const files: ChangedFile[] = [];
  for (const entry of entries) {
    const file: ChangedFile = { path: entry.path, ...(entry.oldPath !== undefined && { oldPath: entry.oldPath }), status: entry.status, binary: false, tooLarge: false };
    if (textsFor(entry.path) || (entry.oldPath !== undefined && textsFor(entry.oldPath))) {
      const [oldText, newText] = await Promise.all([
        text(base, entry.status === 'added' ? undefined : (entry.oldPath ?? entry.path)),
        text(head, entry.status === 'deleted' ? undefined : entry.path),
      ]);
      const tooLarge = (oldText?.length ?? 0) > MAX_SHOWN_BYTES || (newText?.length ?? 0) > MAX_SHOWN_BYTES;
      Object.assign(file, tooLarge ? { tooLarge } : { ...(oldText !== undefined && { oldText }), ...(newText !== undefined && { newText }) });
    }
    files.push(file);
  }
  return files;
}

/** The runner drops one trailing newline of git's output; put it back so texts match the files. */
function withNewline(text: string): string {
  return text === '' ? text : `${text}\n`;
}

export interface NameStatus { status: FileDiff['status']; path: string; oldPath?: string }

/** `--raw -z` (before `--numstat`'s fields): ":modes shas STATUS", then one path, or two for renames and copies. */
export function parseRaw(output: string): NameStatus[] {
  // The raw part ends where the first field that is not a raw record begins (the numstat part, or the end).
  return entriesOf(output.split('\0'), (field) => (field.startsWith(':') ? field.slice(field.lastIndexOf(' ') + 1) : undefined));
}

/** `--name-status -z`: a status (R and C carry a score), then one path, or two for renames and copies. */
export function parseNameStatus(output: string): NameStatus[] {
  return entriesOf(output.split('\0').filter((f) => f !== ''), (field) => field);
}

/** Status records and their paths, from the field where `statusOf` finds a status to the first where it finds none. */
function entriesOf(fields: readonly string[], statusOf: (field: string) => string | undefined): NameStatus[] {
  const entries: NameStatus[] = [];
  for (let i = 0; i < fields.length;) {
    const code = statusOf(fields[i] as string)?.[0];
    if (code === undefined) break;
    const status = STATUS[code] ?? 'modified';
    if (code === 'R' || code === 'C') {
      entries.push({ status, oldPath: fields[i + 1] as string, path: fields[i + 2] as string });
      i += 3;
    } else {
      entries.push({ status, path: fields[i + 1] as string });
      i += 2;
    }
  }
  return entries;
}

/** `--numstat -z`: "adds\tdels\tpath" or, for renames, "adds\tdels\t" then old and new path; "-" counts mean binary. */
export function parseNumstat(output: string): Map<string, { additions: number; deletions: number; binary: boolean }> {
  const counts = new Map<string, { additions: number; deletions: number; binary: boolean }>();
  const fields = output.split('\0');
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] as string;
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(field);
    if (!match) continue;
    let path = match[3] as string;
    if (path === '') {
      // A rename: the old and new paths follow as their own fields.
      path = fields[i + 2] as string;
      i += 2;
    }
    const binary = match[1] === '-';
    counts.set(path, { additions: binary ? 0 : Number(match[1]), deletions: binary ? 0 : Number(match[2]), binary });
  }
  return counts;
}
