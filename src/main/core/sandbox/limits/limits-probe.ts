// Finds out once, at start, how this machine can bound a task's memory and processes: tries each way the cgroup
// mounts allow (making a trial group and joining a process to it), else falls back to rlimits or to nothing.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findOnPath } from '../../host/find-on-path';
import type { LimitsStatus } from '../../../../shared/limits';
import { joinGroupCommand, planGroup, type CgroupLayout } from './cgroup-plan';
import { createGroup, deskFolders, prepareDeskFolders, removeGroup } from './cgroup-groups';
import { fallbackStatus, limitCandidates, parseMountInfo, parseProcCgroup, type Candidate, type LimitsFacts } from './limits-mode';
import { startDelegatedScope } from './systemd-scope';

/** How this desk enforces limits: the status people see, and what the task groups need. */
export interface LimitsEnforcement {
  status: LimitsStatus;
  /** Where task groups go, in the cgroup modes. */
  layout?: CgroupLayout;
  /** Group names in the desk's folders that are not tasks' (the systemd holder). */
  reserved: readonly string[];
  /** Makes the desk's folders where they are missing; called before each task group is made. */
  ready(): Promise<void>;
  /** The prlimit program, in the rlimits mode. */
  prlimit?: string;
  /** Lets the delegated scope go (systemd mode); nothing otherwise. */
  close(): void;
}

export interface LimitsProbeOptions {
  dataDir: string;
  platform?: NodeJS.Platform;
  /** PATH to look programs up in; default: the desk's. */
  path?: string;
  /** The machine's cgroup facts, when the caller has read them already (limitsFacts). */
  facts?: LimitsFacts;
}

/** The desk's folder name: one per data dir, so two desks on one machine never sweep each other's groups. */
export function deskFolderName(dataDir: string): string {
  return `assignment-desk-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
}

export async function probeLimits(options: LimitsProbeOptions): Promise<LimitsEnforcement> {
  const platform = options.platform ?? process.platform;
  const path = options.path ?? process.env.PATH ?? '';
  const prlimit = findOnPath('prlimit', path);
  if (platform !== 'linux') return { status: fallbackStatus(platform, undefined, []), reserved: [], ready: async () => {}, close: () => {} };
  const facts = options.facts ?? limitsFacts(path);
  const folder = deskFolderName(options.dataDir);
  const problems: string[] = [];
  for (const candidate of limitCandidates(facts, folder)) {
    try {
      const prepared = await prepare(candidate, folder);
      try {
        await trialJoin(prepared.layout);
      } catch (error) {
        prepared.close();
        throw error;
      }
      // The desk's folder is made again for the first task: a desk that stops before any (its configuration
      // refused) leaves nothing behind. A delegated scope stays: it is where the folder lives.
      if (candidate.mode !== 'systemd-scope') prepared.close();
      return { status: statusOf(candidate.mode, prepared.layout), ...prepared };
    } catch (error) {
      problems.push(`${candidate.mode}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const status = fallbackStatus(platform, prlimit, problems);
  return { status, reserved: [], ...(status.mode === 'rlimits' && prlimit !== undefined && { prlimit }), ready: async () => {}, close: () => {} };
}

/** What decides how limits can be set here, read from the kernel's files (no process started). */
export function limitsFacts(path: string): LimitsFacts {
  // Kernel files, read in microseconds: synchronously, rather than a wait for the event loop each (as cgroup-groups.ts).
  const mounts = parseMountInfo(readIfThere('/proc/self/mountinfo'));
  const ownText = readIfThere('/proc/self/cgroup');
  const v2 = mounts.find((mount) => mount.version === 2);
  const v2Controllers = v2 ? readIfThere(join(v2.path, 'cgroup.controllers')).trim().split(/\s+/).filter(Boolean) : [];
  const systemdRun = findOnPath('systemd-run', path);
  return { mounts, ownGroups: parseProcCgroup(ownText), v2Controllers, uid: process.getuid?.() ?? -1, ...(systemdRun !== undefined && { systemdRun }) };
}

type Prepared = Pick<LimitsEnforcement, 'reserved' | 'ready' | 'close'> & { layout: CgroupLayout };

async function prepare(candidate: Candidate, folder: string): Promise<Prepared> {
  if (candidate.mode === 'systemd-scope') {
    const scope = await startDelegatedScope(candidate.systemdRun, candidate.v2Mount, folder);
    const layout: CgroupLayout = { version: 2, base: scope.base, cpu: candidate.cpu };
    const ready = () => prepareDeskFolders(layout);
    try {
      await ready();
    } catch (error) {
      scope.stop();
      throw error;
    }
    // The scope lives as long as the desk; `close` lets it go when the desk stops.
    return { layout, reserved: ['holder'], ready, close: scope.stop };
  }
  const prepared = deskWrittenGroups(candidate);
  await prepared.ready();
  return prepared;
}

/** Limits the desk writes itself (cgroup v1 or v2): its folders are made before each task group, removed at close. */
function deskWrittenGroups(candidate: Exclude<Candidate, { mode: 'systemd-scope' }>): Prepared {
  const { layout } = candidate;
  const ready = () => prepareDeskFolders(layout, candidate.mode === 'cgroup-v2' ? dirname(candidate.layout.base) : undefined);
  // Empty once every run has ended: a desk leaves no folder behind (the kernel refuses to remove one in use).
  const close = () => { for (const dir of deskFolders(layout)) { try { rmdirSync(dir); } catch { /* in use, or gone */ } } };
  return { layout, reserved: [], ready, close };
}

/**
 * The enforcement a trial run found here before, in `mode`, for the desk's folder: without the trial (the caller
 * runs it later, see remembered-limits-probe.ts). Undefined when the machine no longer offers that mode.
 */
export function enforcementWithoutTrial(facts: LimitsFacts, dataDir: string, mode: LimitsStatus['mode']): LimitsEnforcement | undefined {
  const candidate = limitCandidates(facts, deskFolderName(dataDir)).find((each) => each.mode === mode);
  if (candidate === undefined || candidate.mode === 'systemd-scope') return undefined;
  const prepared = deskWrittenGroups(candidate);
  return { status: statusOf(candidate.mode, prepared.layout), ...prepared };
}

/** Makes a small group and runs `true` in it, as every task process will start: proof that limits will hold. */
async function trialJoin(layout: CgroupLayout): Promise<void> {
  const plan = planGroup(layout, `probe-${process.pid}`, { memoryMb: { value: 64, fromPolicy: true }, pids: { value: 16, fromPolicy: true } });
  await removeGroup(plan);
  await createGroup(plan);
  try {
    const { command, args } = joinGroupCommand(plan.joinFiles, '/bin/true', []);
    await new Promise<void>((resolve, reject) => {
      execFile(command, args, { timeout: 10_000 }, (error, _stdout, stderr) => (error ? reject(new Error(String(stderr).trim() || error.message)) : resolve()));
    });
  } finally {
    await removeGroup(plan);
  }
}

function statusOf(mode: Candidate['mode'], layout: CgroupLayout): LimitsStatus {
  const where = layout.version === 2 ? layout.base : dirname(layout.memory);
  const what = {
    'systemd-scope': `cgroup v2 in a scope your systemd user manager delegates to the desk (${where})`,
    'cgroup-v2': `cgroup v2, written by the desk (${where})`,
    'cgroup-v1': `cgroup v1 memory and pids${layout.version === 1 && layout.cpu !== undefined ? ' and cpu' : ''} hierarchies, written by the desk`,
  }[mode];
  return { mode, enforced: true, detail: `Each task's processes share its memory and process limits: ${what}.` };
}

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
