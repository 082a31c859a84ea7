// The task graph in memory: each task's status and dependencies, who waits for whom, and which queued tasks
// may have become ready. Loaded once at start; the task service feeds it every write right after the database.
import type { RunnerKind } from '../../../shared/runners';
import type { DependencyGate, ProposalState, ReviewState, TaskStatus } from '../../../shared/task';
import { findCycle } from './dependency-graph';
import { isReady, type DependencyStateOf } from './scheduler';

/** What scheduling and cycle checks need of a task; `seq` is its submission order. */
export interface GraphNode {
  readonly id: string;
  readonly seq: number;
  readonly status: TaskStatus;
  readonly agent: string;
  readonly dependencies: readonly string[];
  readonly review: ReviewState;
  readonly after?: DependencyGate;
  readonly proposal?: ProposalState;
  /** Where the agent runs; left out: `local`. */
  readonly runner?: RunnerKind;
}

export interface TaskGraph {
  /** Adds or replaces a task (a submission, a status or dependency change), as it now stands in the database. */
  put(task: GraphNode): void;
  get(id: string): GraphNode | undefined;
  statusOf(id: string): TaskStatus | undefined;
  /** A dependency's status and review, as readiness needs them. */
  stateOf: DependencyStateOf;
  /** Every task, in no particular order. */
  nodes(): IterableIterator<GraphNode>;
  /** The tasks that wait for `id` (known tasks only). */
  dependentsOf(id: string): ReadonlySet<string>;
  /**
   * The cycle `id` waiting for `dependencies` would close, or undefined. Walks only what the new edges
   * reach, and nothing at all when no task waits for `id` (then no path can lead back to it).
   */
  cycleFor(id: string, dependencies: readonly string[]): string[] | undefined;
  /**
   * Queued tasks that may start as far as dependencies go, in submission order, read lazily: a task
   * becomes a candidate when it is queued or its dependencies change, or when one of its dependencies
   * completes or is approved; candidates found not ready are dropped until that happens again.
   */
  readyCandidates(): Generator<GraphNode, void, undefined>;
}

interface Candidate { readonly id: string; readonly seq: number }

export function createTaskGraph(initial: Iterable<GraphNode>): TaskGraph {
  const byId = new Map<string, GraphNode>();
  /** dependency id → ids of the tasks that wait for it (the id may not be submitted yet). */
  const dependents = new Map<string, Set<string>>();
  /** Candidate ids sorted by seq, with their seq beside them for the binary search. */
  let candidates: Candidate[] = [];
  const candidateIds = new Set<string>();
  /** Counts changes to `candidates`, so a round can tell whether the part it read moved under it. */
  let changes = 0;
  const NONE: ReadonlySet<string> = new Set();
  const statusOf = (id: string) => byId.get(id)?.status;
  const stateOf: DependencyStateOf = (id) => byId.get(id);

  function addCandidate(task: GraphNode): void {
    if (candidateIds.has(task.id)) return;
    candidateIds.add(task.id);
    changes += 1;
    const entry: Candidate = { id: task.id, seq: task.seq };
    // New submissions have the highest seq: the common case is an append.
    const last = candidates.at(-1);
    if (!last || last.seq < task.seq) {
      candidates.push(entry);
      return;
    }
    let low = 0;
    let high = candidates.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((candidates[middle] as { seq: number }).seq < task.seq) low = middle + 1;
      else high = middle;
    }
    candidates.splice(low, 0, entry);
  }

  function link(task: GraphNode): void {
    for (const dependency of task.dependencies) {
      let waiting = dependents.get(dependency);
      if (!waiting) dependents.set(dependency, (waiting = new Set()));
      waiting.add(task.id);
    }
  }

  function unlink(task: GraphNode): void {
    for (const dependency of task.dependencies) {
      const waiting = dependents.get(dependency);
      waiting?.delete(task.id);
      if (waiting?.size === 0) dependents.delete(dependency);
    }
  }

  function put(task: GraphNode): void {
    const node: GraphNode = {
      id: task.id, seq: task.seq, status: task.status, agent: task.agent, dependencies: [...task.dependencies], review: task.review,
      ...(task.after !== undefined && { after: task.after }),
      ...(task.proposal !== undefined && { proposal: task.proposal }),
      ...(task.runner !== undefined && { runner: task.runner }),
    };
    const previous = byId.get(task.id);
    if (previous) unlink(previous);
    byId.set(node.id, node);
    link(node);
    // A candidate's position follows its seq, which a resubmission changes.
    if (previous && previous.seq !== node.seq && candidateIds.delete(node.id)) {
      candidates = candidates.filter((c) => c.id !== node.id);
      changes += 1;
    }
    if (node.status === 'queued') addCandidate(node);
    const approvedNow = node.review === 'approved' && previous?.review !== 'approved';
    if (node.status === 'completed' && (previous?.status !== 'completed' || approvedNow)) {
      for (const id of dependents.get(node.id) ?? NONE) {
        const waiting = byId.get(id);
        if (waiting?.status === 'queued') addCandidate(waiting);
      }
    }
  }

  for (const task of initial) put(task);

  return {
    put,
    get: (id) => byId.get(id),
    statusOf,
    stateOf,
    nodes: () => byId.values(),
    dependentsOf: (id) => dependents.get(id) ?? NONE,

    cycleFor(id, dependencies) {
      if (dependencies.length === 0) return undefined;
      if (!dependencies.includes(id) && !dependents.has(id)) return undefined;
      return findCycle({ get: (node) => byId.get(node)?.dependencies }, id, dependencies);
    },

    *readyCandidates() {
      const dropped = new Set<Candidate>();
      const changesBefore = changes;
      let scanned = 0;
      try {
        while (scanned < candidates.length) {
          const entry = candidates[scanned] as Candidate;
          scanned += 1;
          const task = byId.get(entry.id);
          if (!task || !isReady(task, stateOf)) {
            dropped.add(entry);
            candidateIds.delete(entry.id);
            continue;
          }
          yield task;
        }
      } finally {
        if (dropped.size > 0) {
          // Usually nothing changes while a round runs: only the part read is compacted, so a round costs what it read.
          if (changes === changesBefore) candidates.splice(0, scanned, ...candidates.slice(0, scanned).filter((e) => !dropped.has(e)));
          else candidates = candidates.filter((e) => !dropped.has(e));
        }
      }
    },
  };
}
