// What a task's own git dir holds, and which commit it ends on, decided from text the desk read. Pure: the
// service around it (task-git-dir.ts) reads and writes the files, so tests can state any repository here.
import { join } from 'node:path';

/** The format `git for-each-ref` is asked for: object, peeled object (annotated tags), name. */
export const REF_SNAPSHOT_FORMAT = '%(objectname) %(*objectname) %(refname)';

/** What the person's refs git reads the snapshot from: branches, tags and remote-tracking branches. */
export const REF_SNAPSHOT_PATTERNS = ['refs/heads', 'refs/tags', 'refs/remotes'];

export interface TaskGitDirFacts {
  /** The repository's shared git dir (absolute): its objects are borrowed, its config and hooks read. */
  commonDir: string;
  /** The worktree's HEAD file as the desk's worktree dir holds it (`ref: refs/heads/<branch>`). */
  worktreeHead: string;
  /** `git for-each-ref --format=REF_SNAPSHOT_FORMAT` of the person's repository. */
  refs: string;
}

export interface TaskGitDirPlan {
  /** The ref the task's HEAD names, `refs/heads/<branch>`. */
  branchRef: string;
  /** Where the task's branch is now: the commit the agent's turn starts from. */
  startCommit: string;
  /** Files of the task's git dir, by path relative to it. */
  files: Record<string, string>;
}

/** Thrown when the worktree is not on a branch of the desk's or the branch is not among the refs read. */
export class TaskGitDirRefused extends Error {}

/** The branch (`refs/heads/…`) a worktree's HEAD file names; throws TaskGitDirRefused when it names none. */
export function branchRefOfHead(worktreeHead: string): string {
  const branchRef = /^ref: (refs\/heads\/\S+)$/.exec(worktreeHead.trim())?.[1];
  if (branchRef === undefined) throw new TaskGitDirRefused(`the worktree's HEAD names no branch (${worktreeHead.trim().slice(0, 80)})`);
  return branchRef;
}

export function planTaskGitDir(facts: TaskGitDirFacts): TaskGitDirPlan {
  const branchRef = branchRefOfHead(facts.worktreeHead);
  const refs = parseRefs(facts.refs);
  const start = refs.find((ref) => ref.name === branchRef)?.object;
  if (start === undefined) throw new TaskGitDirRefused(`the task's branch ${branchRef} does not exist`);
  const sha256 = start.length === 64;
  const config = [
    '[core]',
    // Extensions are read from this file only, never from an included one: the object format is said here.
    `\trepositoryformatversion = ${sha256 ? 1 : 0}`,
    '\tbare = false',
    '\tlogallrefupdates = true',
    // The person's hooks run for the agent's commits as they did before (read-only); their config may name others.
    `\thooksPath = ${join(facts.commonDir, 'hooks')}`,
    ...(sha256 ? ['[extensions]', '\tobjectformat = sha256'] : []),
    '[include]',
    `\tpath = ${join(facts.commonDir, 'config')}`,
    // After the person's config, so it holds: a split index's shared part is lent read-only (./task-git-dir.ts), and
    // git freshening it would warn at every write. The agent's git writes its index whole instead, when it writes one.
    '[core]',
    '\tsplitIndex = false',
    // Auto-gc would repack into the task's objects what the borrowed ones hold; nothing is gained in one turn.
    '[gc]',
    '\tauto = 0',
    '',
  ].join('\n');
  return {
    branchRef,
    startCommit: start,
    files: {
      HEAD: `ref: ${branchRef}\n`,
      config,
      'objects/info/alternates': `${join(facts.commonDir, 'objects')}\n`,
      [branchRef]: `${start}\n`,
      'packed-refs': packedRefs(refs.filter((ref) => ref.name !== branchRef)),
    },
  };
}

interface SnapshotRef { object: string; peeled?: string; name: string }

function parseRefs(text: string): SnapshotRef[] {
  const refs: SnapshotRef[] = [];
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64})? (refs\/\S+)$/.exec(line);
    if (match?.[1] !== undefined && match[3] !== undefined) refs.push({ object: match[1], name: match[3], ...(match[2] !== undefined && { peeled: match[2] }) });
  }
  return refs;
}

/** git's packed-refs file: sorted by name, every annotated tag followed by what it peels to. */
function packedRefs(refs: readonly SnapshotRef[]): string {
  const lines = ['# pack-refs with: peeled fully-peeled sorted '];
  for (const ref of [...refs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    lines.push(`${ref.object} ${ref.name}`);
    if (ref.peeled !== undefined) lines.push(`^${ref.peeled}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The ref a HEAD file names (`ref: refs/…`), when it names one inside the git dir. */
export function refNamedBy(head: string | undefined): string | undefined {
  const ref = /^ref: (refs\/\S+)$/.exec(head?.trim() ?? '')?.[1];
  // A name with `..` would lead outside the git dir.
  return ref === undefined || ref.split('/').includes('..') ? undefined : ref;
}

export interface TaskGitDirState {
  /** The task git dir's HEAD file, undefined when the agent removed it. */
  head: string | undefined;
  /** The loose ref file HEAD names (see refNamedBy), if there is one. */
  looseRef: string | undefined;
  /** The task git dir's packed-refs file, if any. */
  packedRefs: string | undefined;
}

/**
 * The commit the task's HEAD is on after the turn: what the agent's own git left. undefined when it names none
 * (an unborn branch, a HEAD removed or garbled): nothing to take then.
 */
export function tipOf(state: TaskGitDirState): string | undefined {
  const head = state.head?.trim();
  if (head === undefined) return undefined;
  if (isObjectName(head)) return head;
  const ref = refNamedBy(head);
  if (ref === undefined) return undefined;
  const loose = state.looseRef?.trim();
  if (loose !== undefined) return isObjectName(loose) ? loose : undefined;
  for (const line of (state.packedRefs ?? '').split('\n')) {
    const [object, name] = line.split(' ');
    if (name === ref && object !== undefined && isObjectName(object)) return object;
  }
  return undefined;
}

function isObjectName(text: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(text);
}
