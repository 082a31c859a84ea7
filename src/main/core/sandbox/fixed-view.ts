// The part of a task's sandbox view that is the same for every task of one agent and policy (what of the home, the
// shared temp dirs and the agent's install it sees): read from the machine once, reused while the places read are unchanged.
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute } from 'node:path';
import type { AgentPolicy } from '../../../shared/governance';
import { agentEnvironment } from '../agents/agent-environment';
import type { AgentSpec } from '../agents/agent-spec';
import type { Mount } from './bwrap-arguments';
import { readViewMounts } from './read-view';
import { isWithin } from './sandbox-layout';
import { hostKindOf, readViewFactsFor } from './view-facts';

export interface FixedViewRequest {
  home: string;
  agent: AgentSpec;
  policy: Pick<AgentPolicy, 'hiddenPaths' | 'readablePaths'>;
  environment: NodeJS.ProcessEnv;
}

export interface FixedView {
  /** The read view's mounts (./read-view.ts) for a task whose temp dir, its /tmp, is `tempDir`. */
  readView(tempDir: string): Mount[];
  /** What is at `path`: remembered for the home's places (checked as the view was), asked afresh elsewhere. */
  kindOf(path: string): 'dir' | 'file' | undefined;
}

/** A change younger than this may share its modification time with one made just after it: not trusted to stay. */
const SETTLED_NS = 2_000_000_000n;
/** Stands for the task's temp dir in a remembered view. */
const TASK_TEMP = '\0task-temp';

interface Snapshot {
  view: Mount[];
  watched: Map<string, bigint | undefined>;
  /** What is at `path`, remembered once the directory holding it has settled. */
  kindOf(path: string): 'dir' | 'file' | undefined;
}

/**
 * One view per agent, policy, home and PATH. A view holds the modification time of every directory whose entries an
 * answer came from (the parent of each place looked at, each PATH directory, where each link leads): when one of them
 * changes, the view is read again. A view read while one of them had just changed is used once, not kept.
 */
export function createFixedViews(): { viewFor(request: FixedViewRequest): FixedView } {
  const snapshots = new Map<string, Snapshot>();
  return {
    viewFor(request) {
      const pathVariable = agentEnvironment(request.environment, request.agent).PATH ?? '';
      const { agent, policy } = request;
      const key = JSON.stringify([request.home, pathVariable, agent.id, agent.command, agent.args, agent.env, agent.envAllowlist, policy.hiddenPaths, policy.readablePaths]);
      let snapshot = snapshots.get(key);
      if (snapshot !== undefined && !unchanged(snapshot.watched)) snapshot = undefined;
      if (snapshot === undefined) {
        snapshots.delete(key);
        snapshot = readSnapshot(request, pathVariable);
        if (settled(snapshot.watched.values())) snapshots.set(key, snapshot);
      }
      const { view, kindOf } = snapshot;
      return {
        readView: (tempDir) => view.map((mount) => (mount.source === TASK_TEMP ? { ...mount, source: tempDir } : mount)),
        // The home's places (its credentials above all) are looked up on every task; elsewhere are the task's own.
        kindOf: (path) => (isWithin(path, request.home) ? kindOf(path) : hostKindOf(path)),
      };
    },
  };
}

function readSnapshot(request: FixedViewRequest, pathVariable: string): Snapshot {
  const watched = new Map<string, bigint | undefined>();
  // Looked at before what it holds is read: a change while reading shows as a change next time.
  const watch = (dir: string) => { if (!watched.has(dir)) watched.set(dir, modifiedAt(dir)); };
  for (const dir of pathVariable.split(delimiter).filter(isAbsolute)) watch(dir);
  const kinds = new Map<string, 'dir' | 'file' | undefined>();
  const kindOf = (path: string) => {
    if (kinds.has(path)) return kinds.get(path);
    const dir = dirname(path);
    const time = watched.has(dir) ? watched.get(dir) : modifiedAt(dir);
    const kind = hostKindOf(path);
    if (settled([time])) {
      watched.set(dir, time);
      kinds.set(path, kind);
    }
    return kind;
  };
  const linkTarget = (path: string) => {
    watch(dirname(path));
    const target = linkTargetOf(path);
    if (target !== undefined) watch(dirname(target));
    return target;
  };
  const facts = readViewFactsFor({ ...request, tempDir: TASK_TEMP });
  for (const path of [...facts.installPaths, ...(facts.pathLinkTargets ?? [])]) watch(dirname(path));
  const view = readViewMounts({ ...facts, kindOf: (path) => { watch(dirname(path)); return kindOf(path); }, linkTarget });
  return { view, watched, kindOf };
}

function unchanged(watched: ReadonlyMap<string, bigint | undefined>): boolean {
  for (const [dir, time] of watched) if (modifiedAt(dir) !== time) return false;
  return true;
}

function settled(times: Iterable<bigint | undefined>): boolean {
  const now = BigInt(Date.now()) * 1_000_000n;
  for (const time of times) if (time !== undefined && now - time < SETTLED_NS) return false;
  return true;
}

function modifiedAt(dir: string): bigint | undefined {
  try {
    return statSync(dir, { bigint: true }).mtimeNs;
  } catch {
    return undefined;
  }
}

function linkTargetOf(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : undefined;
  } catch {
    return undefined;
  }
}
