// Pure decisions about the read-only snapshots of base commits (./snapshot-store.ts): where each lives, which one a
// request reuses or moves, when `prepare` runs again, and what a sweep removes given the tasks still using one.
import { createHash } from 'node:crypto';
import { basename, dirname } from 'node:path';
import picomatch from 'picomatch';

/** What the store knows of one finished snapshot. */
export interface SnapshotState {
  repoKey: string;
  commit: string;
  /** When it was made or last moved to its commit (ISO time): the newest per repository is kept. */
  madeAt: string;
  /** The tasks holding a lease on it. */
  leases: readonly string[];
}

/** How a snapshot of the wanted commit comes to be. */
export type SnapshotWay =
  | { kind: 'reuse' }
  /** The previous snapshot of the repository, unused, moved to the new commit: only changed files are rewritten. */
  | { kind: 'move'; from: string }
  /** A checkout of its own: no previous snapshot, or the previous one is still in use. */
  | { kind: 'checkout' }
  /** The snapshot of this commit is out of date and unused: removed, then checked out anew. */
  | { kind: 'remake' };

/** Names of directories that never look finished: made, moved or removed in them, renamed only when done. */
const TEMP_PREFIXES = ['.making-', '.moving-', '.removing-'] as const;
export type TempKind = 'making' | 'moving' | 'removing';

/** A full commit id (sha1 or sha256), as the store names snapshot directories. */
export function isCommitId(text: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(text);
}

/**
 * The directory name of a repository's snapshots: readable (the repository's folder name) and unique (a hash of its
 * shared git dir), so two repositories with the same folder name never share snapshots.
 */
export function repoKeyOf(commonDir: string): string {
  const trimmed = commonDir.replace(/[/\\]+$/, '');
  const name = basename(trimmed) === '.git' ? basename(dirname(trimmed)) : basename(trimmed).replace(/\.git$/, '');
  const slug = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 40) || 'repo';
  return `${slug}-${createHash('sha256').update(trimmed).digest('hex').slice(0, 12)}`;
}

/** A temp directory's name for `commit`: unique per attempt, never a commit id. */
export function tempName(kind: TempKind, commit: string, unique: string): string {
  return `.${kind}-${commit}-${unique}`;
}

export function isTempName(name: string): boolean {
  return TEMP_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** A lease file's name for a task: task ids are any text, file names are not. */
export function leaseFileName(taskId: string): string {
  return `${createHash('sha256').update(taskId).digest('hex').slice(0, 40)}.lease`;
}

/**
 * How to get a snapshot of `commit` given the repository's finished ones: reuse it when there (and made as the config
 * now says, or still in use); make it anew when it is unused but out of date; else move the newest one when no
 * task uses it; else check out anew.
 */
export function snapshotWay(commit: string, existing: readonly SnapshotState[], upToDate = true): SnapshotWay {
  const same = existing.find((snapshot) => snapshot.commit === commit);
  if (same && (upToDate || same.leases.length > 0)) return { kind: 'reuse' };
  if (same) return { kind: 'remake' };
  const previous = newest(existing);
  if (previous && previous.leases.length === 0) return { kind: 'move', from: previous.commit };
  return { kind: 'checkout' };
}

/** What a snapshot was made with, beside what the repository's config says now. */
export interface MadeWith {
  prepared: string | undefined;
  copy: readonly string[];
}

/**
 * Whether a snapshot is as the config would make it now: the same `copy` globs, and the same `prepare` command when
 * there is one (a removed command leaves what it made, which harms no task).
 */
export function upToDate(made: MadeWith, now: { prepare?: string | undefined; copy?: readonly string[] | undefined }): boolean {
  const globs = (list: readonly string[] | undefined) => [...(list ?? [])].sort().join('\0');
  return globs(made.copy) === globs(now.copy) && (now.prepare === undefined || now.prepare === made.prepared);
}

export interface PrepareFacts {
  /** The repository's `prepare` command now. */
  command: string | undefined;
  prepareWhen: readonly string[] | undefined;
  /** What was there before: undefined for a snapshot checked out anew. */
  previous?: {
    /** The command that last ran in the snapshot (undefined: none ran). */
    prepared: string | undefined;
    /** Paths that differ between its commit and the new one. */
    changedPaths: readonly string[];
  };
}

/**
 * Whether `prepare` runs for this snapshot: always for a new checkout; for a moved one when the command changed, when
 * no `prepareWhen` is given, or when a changed path matches one of its globs.
 */
export function prepareDue(facts: PrepareFacts): boolean {
  if (facts.command === undefined) return false;
  const { previous } = facts;
  if (!previous || previous.prepared !== facts.command || facts.prepareWhen === undefined) return true;
  if (facts.prepareWhen.length === 0) return false;
  const matches = picomatch([...facts.prepareWhen], { dot: true });
  return previous.changedPaths.some((path) => matches(path));
}

export interface SweepPlan {
  /** Snapshots to remove: no task uses them and they are not their repository's newest. */
  remove: { repoKey: string; commit: string }[];
  /** Leases held by tasks that no longer run, wait or sit in review (e.g. ended while the desk was down). */
  staleLeases: { repoKey: string; commit: string; taskId: string }[];
}

/**
 * What a sweep removes. `live`: the tasks still using something (running, waiting or in review); undefined trusts the
 * leases as they are. The newest snapshot of each repository stays even unused, so the next task starts at once.
 */
export function sweepPlan(snapshots: readonly SnapshotState[], live?: ReadonlySet<string>): SweepPlan {
  const staleLeases = live === undefined ? [] : snapshots.flatMap((snapshot) => snapshot.leases
    .filter((taskId) => !live.has(taskId))
    .map((taskId) => ({ repoKey: snapshot.repoKey, commit: snapshot.commit, taskId })));
  const newestOf = new Map<string, SnapshotState>();
  for (const snapshot of snapshots) {
    const kept = newestOf.get(snapshot.repoKey);
    if (!kept || isNewer(snapshot, kept)) newestOf.set(snapshot.repoKey, snapshot);
  }
  const remove = snapshots
    .filter((snapshot) => newestOf.get(snapshot.repoKey) !== snapshot)
    .filter((snapshot) => !snapshot.leases.some((taskId) => live === undefined || live.has(taskId)))
    .map(({ repoKey, commit }) => ({ repoKey, commit }));
  return { remove, staleLeases };
}

function newest(snapshots: readonly SnapshotState[]): SnapshotState | undefined {
  return snapshots.reduce<SnapshotState | undefined>((best, snapshot) => (!best || isNewer(snapshot, best) ? snapshot : best), undefined);
}

/** Later `madeAt` first; the commit id breaks ties so the answer never depends on listing order. */
function isNewer(a: SnapshotState, b: SnapshotState): boolean {
  return a.madeAt === b.madeAt ? a.commit > b.commit : a.madeAt > b.madeAt;
}
