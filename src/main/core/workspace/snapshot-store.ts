// One read-only snapshot per (repository, base commit) under `<data dir>/snapshots/<repo key>/<commit>/`: `tree/` (the
// commit's files, what the repository's `copy` globs bring in, what `prepare` made), `git/` (a split index whose stat
// data matches `tree/`, ./snapshot-index.ts), `snapshot.json` and `leases/` (the tasks using it). Tasks see it through
// overlays made by their runner; the store only makes, reuses, moves and removes snapshots. Each is built in a temp dir
// renamed into place when finished, so a crash leaves only temp dirs, which `start` removes.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deskError } from '../../../shared/desk-error';
import type { RepoConfig } from '../../../shared/repo-config';
import type { GitRunner } from '../git/git-runner';
import { createMutex, type Mutex } from '../git/repo-mutex';
import { copyIntoWorktree } from './copy-into-worktree';
import { checkOutCommit, finishIndex, moveCheckout, snapshotRepo } from './snapshot-index';
import { dropLease, readLeases, writeLease } from './snapshot-leases';
import { isCommitId, isTempName, prepareDue, repoKeyOf, snapshotWay, sweepPlan, tempName, upToDate, type SnapshotState } from './snapshot-plan';

/** Runs `command` in `dir` (the integration confines it like a task's setup); `onOutput` gets its output as it comes. */
export type RunPrepare = (dir: string, command: string, onOutput: (text: string) => void) => Promise<PrepareOutcome>;
export interface PrepareOutcome {
  exitCode: number | null;
  signal?: string | null;
  /** The output's last lines, for the error when it fails. */
  tail?: string;
}

export interface SnapshotStoreDeps {
  /** Where snapshots live: `<data dir>/snapshots`. */
  dir: string;
  git: GitRunner;
  runPrepare: RunPrepare;
  now?: () => Date;
}

export interface SnapshotRequest {
  /** The repository's shared git dir (absolute). */
  commonDir: string;
  /** The person's checkout, where `copy` globs are read. */
  checkout: string;
  /** The base commit (a full id). */
  commit: string;
  config: Pick<RepoConfig, 'copy' | 'prepare' | 'prepareWhen'>;
  /** One line per step (checkout, copy, prepare and its output). */
  onProgress?: (line: string) => void;
}

export interface Snapshot {
  repoKey: string;
  commit: string;
  dir: string;
  /** The commit's files: an overlay's lower dir. */
  tree: string;
  /** The snapshot's git dir: `index` and `sharedIndex` in it (see linkSnapshotIndex). */
  gitDir: string;
  /** The shared index's file name in `gitDir`. */
  sharedIndex: string;
  /** The `prepare` command that ran in it, if any. */
  prepared?: string;
  /** The `copy` globs applied to it. */
  copy: string[];
}

export interface SnapshotStore {
  /** Removes what a crash left half made (temp dirs). Call once before anything else. */
  start(): Promise<void>;
  /**
   * The snapshot of the request's commit, made when missing (from the repository's previous one when no task uses it);
   * with `taskId`, leased to that task until `release`. Concurrent requests for one commit share one making.
   */
  snapshot(request: SnapshotRequest, taskId?: string): Promise<Snapshot>;
  /** Drops every lease `taskId` holds. */
  release(taskId: string): Promise<void>;
  /** Every finished snapshot with its leases. */
  list(): Promise<SnapshotState[]>;
  /**
   * Removes snapshots no task uses, keeping each repository's newest. `live`: the tasks still running, waiting or in
   * review; their leases stay and the others are dropped first. Returns the snapshots removed (`<repo key>/<commit>`).
   */
  sweep(live?: ReadonlySet<string>): Promise<string[]>;
}

const META = 'snapshot.json';

interface SnapshotMeta {
  commit: string;
  madeAt: string;
  prepared?: string;
  /** The `copy` globs applied (older snapshots may lack it: treated as none). */
  copy?: string[];
  sharedIndex: string;
}

/** A making in flight: who waits for its progress, which tasks want a lease, whether those leases are written. */
interface Making {
  /** Set right after the making is queued. */
  promise?: Promise<Snapshot>;
  listeners: Set<(line: string) => void>;
  tasks: Set<string>;
  leased: boolean;
}

export function createSnapshotStore(deps: SnapshotStoreDeps): SnapshotStore {
  const now = deps.now ?? (() => new Date());
  // Quick file operations that decide: leases, claiming a snapshot to move, sweeping. Never held across a checkout.
  const lock = createMutex();
  // One making at a time per repository: the next one may move the snapshot the previous one made.
  const queues = new Map<string, Mutex>();
  const making = new Map<string, Making>();

  const repoDir = (key: string) => join(deps.dir, key);
  const dirOf = (key: string, commit: string) => join(deps.dir, key, commit);

  const finished = async (key: string, commit: string): Promise<Snapshot | undefined> => {
    const meta = await readMeta(dirOf(key, commit));
    return meta && snapshotOf(key, dirOf(key, commit), meta);
  };

  /** The finished snapshot of `commit` when a request may take it: made as its config says, or in use (kept as it is). */
  const usable = async (key: string, request: SnapshotRequest): Promise<Snapshot | undefined> => {
    const found = await finished(key, request.commit);
    if (!found) return undefined;
    if (upToDate({ prepared: found.prepared, copy: found.copy }, request.config)) return found;
    return (await readLeases(found.dir)).length > 0 ? found : undefined;
  };

  const statesOf = async (key: string): Promise<SnapshotState[]> => {
    const states: SnapshotState[] = [];
    for (const name of await listDir(repoDir(key))) {
      if (!isCommitId(name)) continue;
      const meta = await readMeta(dirOf(key, name));
      if (meta) states.push({ repoKey: key, commit: name, madeAt: meta.madeAt, leases: await readLeases(dirOf(key, name)) });
    }
    return states;
  };

  const allStates = async (): Promise<SnapshotState[]> => (await Promise.all((await listDir(deps.dir)).map(statesOf))).flat();

  /** Makes the snapshot (in the repository's queue); writes the leases of the tasks waiting for it as it lands. */
  const make = async (request: SnapshotRequest, key: string, entry: Making): Promise<Snapshot> => {
    const progress = (line: string) => { for (const listener of entry.listeners) listener(line); };
    const { commit } = request;
    const claim = await lock.run(async () => {
      if (await usable(key, request)) return { kind: 'reuse' as const };
      const way = snapshotWay(commit, await statesOf(key), false);
      if (way.kind === 'remake') {
        // Out of date (its copy or prepare changed) and unused: out of the way now, removed after the lock.
        const doomed = join(repoDir(key), tempName('removing', commit, randomUUID()));
        await rename(dirOf(key, commit), doomed);
        return { kind: 'checkout' as const, doomed };
      }
      if (way.kind !== 'move') return { kind: way.kind, doomed: undefined };
      // Claimed by renaming it away while no task holds it: no lease can be taken on it from now on.
      const temp = join(repoDir(key), tempName('moving', commit, randomUUID()));
      const meta = await readMeta(dirOf(key, way.from));
      await rename(dirOf(key, way.from), temp);
      return { kind: 'move' as const, from: way.from, temp, meta };
    });
    if (claim.kind === 'reuse') return landed(key, commit, entry);
    if (claim.kind === 'checkout' && claim.doomed !== undefined) {
      progress('checkout: the snapshot of this commit was made with another copy or prepare; making it anew');
      await rm(claim.doomed, { recursive: true, force: true });
    }
    let temp: string | undefined;
    // The last time anything wrote into the tree: the final index must be dated after it.
    let lastWrite = 0;
    try {
      let previous: { prepared: string | undefined; changedPaths: string[] } | undefined;
      if (claim.kind === 'move') {
        temp = claim.temp;
        progress(`checkout: moving the snapshot of ${claim.from.slice(0, 12)} to ${commit.slice(0, 12)}`);
        try {
          const { changedPaths, ended } = await moveCheckout(deps.git, snapshotRepo(request.commonDir, temp), claim.from, commit);
          lastWrite = ended;
          previous = { prepared: claim.meta?.prepared, changedPaths };
          progress(`checkout: ${changedPaths.length} changed file${changedPaths.length === 1 ? '' : 's'} updated`);
        } catch (error) {
          progress(`checkout: could not move the previous snapshot (${firstLine(error)}); checking out anew`);
          await rm(temp, { recursive: true, force: true });
          temp = undefined;
        }
      }
      if (temp === undefined) {
        temp = join(repoDir(key), tempName('making', commit, randomUUID()));
        const repo = snapshotRepo(request.commonDir, temp);
        await mkdir(repo.workTree, { recursive: true });
        await mkdir(repo.gitDir);
        progress(`checkout: ${commit.slice(0, 12)}`);
        lastWrite = await checkOutCommit(deps.git, repo, commit);
      }
      const repo = snapshotRepo(request.commonDir, temp);
      const copy = request.config.copy ?? [];
      if (copy.length > 0) {
        const copied = await copyIntoWorktree(request.checkout, repo.workTree, copy);
        progress(`copy: ${copied.length === 0 ? 'nothing matched' : copied.join(', ')}`);
        if (copied.length > 0) lastWrite = Date.now();
      }
      const command = request.config.prepare;
      let prepared = command;
      if (prepareDue({ command, prepareWhen: request.config.prepareWhen, ...(previous && { previous }) })) {
        progress(`prepare: ${command}`);
        await prepare(deps.runPrepare, repo.workTree, command ?? '', progress);
        lastWrite = Date.now();
      } else {
        prepared = previous?.prepared;
        if (command !== undefined) progress('prepare: not needed (no file of prepareWhen changed)');
      }
      const sharedIndex = await finishIndex(deps.git, repo, lastWrite);
      const meta: SnapshotMeta = { commit, madeAt: now().toISOString(), ...(prepared !== undefined && { prepared }), copy: [...copy], sharedIndex };
      await writeFile(join(temp, META), `${JSON.stringify(meta, null, 2)}\n`);
      const from = temp;
      await lock.run(async () => {
        for (const taskId of entry.tasks) await writeLease(from, taskId);
        await rename(from, dirOf(key, commit));
        entry.leased = true;
      });
      temp = undefined;
      progress('ready');
      return snapshotOf(key, dirOf(key, commit), meta);
    } finally {
      if (temp !== undefined) await rm(temp, { recursive: true, force: true }).catch(() => undefined);
    }
  };

  /** A snapshot that turned out to exist already: leases written under the lock, as a new one's would be. */
  const landed = (key: string, commit: string, entry: Making): Promise<Snapshot> => lock.run(async () => {
    const found = await finished(key, commit);
    if (!found) throw new Error(`the snapshot of ${commit} vanished while it was being made`);
    for (const taskId of entry.tasks) await writeLease(found.dir, taskId);
    entry.leased = true;
    return found;
  });

  const snapshot = async (request: SnapshotRequest, taskId?: string): Promise<Snapshot> => {
    const { commit } = request;
    if (!isCommitId(commit)) throw deskError('invalid', 'snapshot_commit_invalid', `A snapshot needs a full commit id, not "${commit}".`);
    const key = repoKeyOf(request.commonDir);
    const existing = await lock.run(async () => {
      const found = await usable(key, request);
      if (found && taskId !== undefined) await writeLease(found.dir, taskId);
      return found;
    });
    if (existing) return existing;
    const id = `${key}/${commit}`;
    let entry = making.get(id);
    // A making whose leases are already written cannot take this one: a new one then finds the snapshot and leases it.
    if (!entry || entry.leased) {
      let queue = queues.get(key);
      if (!queue) queues.set(key, queue = createMutex());
      const started: Making = { listeners: new Set(), tasks: new Set(), leased: false };
      started.promise = queue.run(() => make(request, key, started)).finally(() => { if (making.get(id) === started) making.delete(id); });
      making.set(id, started);
      entry = started;
    }
    if (request.onProgress) entry.listeners.add(request.onProgress);
    if (taskId !== undefined) entry.tasks.add(taskId);
    try {
      return await (entry.promise as Promise<Snapshot>);
    } finally {
      if (request.onProgress) entry.listeners.delete(request.onProgress);
    }
  };

  return {
    async start() {
      await mkdir(deps.dir, { recursive: true });
      for (const key of await listDir(deps.dir)) {
        for (const name of await listDir(repoDir(key))) {
          if (isTempName(name)) await rm(join(repoDir(key), name), { recursive: true, force: true });
        }
      }
    },
    snapshot,
    release: (taskId) => lock.run(async () => {
      for (const state of await allStates()) {
        if (state.leases.includes(taskId)) await dropLease(dirOf(state.repoKey, state.commit), taskId);
      }
    }),
    list: () => lock.run(allStates),
    async sweep(live) {
      const doomed = await lock.run(async () => {
        const plan = sweepPlan(await allStates(), live);
        for (const stale of plan.staleLeases) await dropLease(dirOf(stale.repoKey, stale.commit), stale.taskId);
        const moved: { name: string; temp: string }[] = [];
        for (const { repoKey, commit } of plan.remove) {
          const temp = join(repoDir(repoKey), tempName('removing', commit, randomUUID()));
          await rename(dirOf(repoKey, commit), temp);
          moved.push({ name: `${repoKey}/${commit}`, temp });
        }
        return moved;
      });
      for (const { temp } of doomed) await rm(temp, { recursive: true, force: true });
      return doomed.map(({ name }) => name);
    },
  };
}

async function prepare(runPrepare: RunPrepare, tree: string, command: string, progress: (line: string) => void): Promise<void> {
  let pending = '';
  const outcome = await runPrepare(tree, command, (text) => {
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) progress(`prepare: ${line}`);
  });
  if (pending !== '') progress(`prepare: ${pending}`);
  if (outcome.exitCode === 0) return;
  const how = outcome.exitCode === null ? `was stopped (${outcome.signal ?? 'signal'})` : `exited with code ${outcome.exitCode}`;
  throw deskError('unavailable', 'prepare_failed',
    `The repository's prepare command "${command}" ${how}; fix it in .desk/config.json (or Settings → Repositories) and start the task again.${outcome.tail ? `\n${outcome.tail}` : ''}`);
}

function snapshotOf(repoKey: string, dir: string, meta: SnapshotMeta): Snapshot {
  return {
    repoKey, commit: meta.commit, dir, tree: join(dir, 'tree'), gitDir: join(dir, 'git'), sharedIndex: meta.sharedIndex, copy: meta.copy ?? [],
    ...(meta.prepared !== undefined && { prepared: meta.prepared }),
  };
}

/** Blocking, like the lease it comes before (./snapshot-leases.ts): a file of a few hundred bytes. */
async function readMeta(dir: string): Promise<SnapshotMeta | undefined> {
  try {
    return JSON.parse(readFileSync(join(dir, META), 'utf8')) as SnapshotMeta;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
