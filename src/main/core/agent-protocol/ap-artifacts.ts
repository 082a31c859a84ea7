// A task's artifacts for Agent Protocol clients: the files its commits changed (`agent_created`) and the files
// clients uploaded into its worktree; listing, downloading and uploading them.
import type { ApArtifact } from '../../../shared/agent-protocol';
import type { TaskDetail } from '../../../shared/task';
import type { EventBus } from '../events/event-bus';
import type { ChangedFiles } from '../git/changed-files';
import type { ApRecordsRepo } from '../store/ap-records-repo';
import type { TurnRecord } from '../store/turns-repo';
import type { TaskService } from '../tasks/task-service';
import { noWorktree, artifactNotFound } from './ap-errors';
import { artifactIdFor, toApArtifact, type ArtifactFacts } from './ap-mapping';
import { readUpload, uploadExists, uploadPathFor, writeUpload, type Reach } from './worktree-uploads';

export interface Upload { fileName: string; relativePath?: string; data: Buffer }

export interface ApArtifacts {
  /** The files the task's commits left changed since its first turn began, then the uploads. */
  forTask(task: TaskDetail, turns: readonly TurnRecord[]): Promise<ApArtifact[]>;
  /** The files one turn's commit changed. */
  forTurn(task: TaskDetail, turns: readonly TurnRecord[], turn: TurnRecord): Promise<ApArtifact[]>;
  read(task: TaskDetail, turns: readonly TurnRecord[], artifactId: string): Promise<{ fileName: string; data: Buffer }>;
  /** Writes into the task's worktree, waiting a while for a task that is about to get one. */
  upload(taskId: string, upload: Upload): Promise<ApArtifact>;
}

export interface ApArtifactsDeps {
  tasks: TaskService;
  records: ApRecordsRepo;
  files: ChangedFiles;
  bus: EventBus;
  now(): Date;
  /** How long an upload waits for a task that is starting; default 20 s. */
  worktreeWaitMs?: number;
  /** How the desk reaches a worktree that is a layer, mounted for the purpose (Core.worktreeView); undefined for a checkout. */
  reachOf?(worktree: string): Promise<Reach | undefined>;
}

interface Entry { facts: ArtifactFacts; upload: boolean; head?: string }

export function createApArtifacts(deps: ApArtifactsDeps): ApArtifacts {
  const { files, records } = deps;

  async function collect(task: TaskDetail, turns: readonly TurnRecord[]): Promise<Entry[]> {
    const entries = new Map<string, Entry>();
    const committed = turns.filter((t): t is TurnRecord & { commit: string } => t.commit !== undefined);
    const first = committed[0];
    const last = committed.at(-1);
    if (first && last) {
      // From the commit the first turn started on, so files that dependencies brought in are not counted as this task's.
      const [paths, perTurn] = await Promise.all([
        files.between(`${first.commit}^`, last.commit),
        Promise.all(committed.map(async (t) => new Set(await files.ofCommit(t.commit)))),
      ]);
      for (const path of paths) {
        const touching = committed.filter((_, index) => perTurn[index]?.has(path));
        const at = (t: TurnRecord | undefined) => t?.finishedAt ?? last.finishedAt ?? task.updatedAt;
        entries.set(path, { facts: { taskId: task.id, path, agentCreated: true, createdAt: at(touching[0]), modifiedAt: at(touching.at(-1)) }, upload: false, head: last.commit });
      }
    }
    const worktree = task.worktreePath;
    const reach = worktree === undefined ? undefined : await deps.reachOf?.(worktree);
    for (const upload of records.uploads(task.id, task.submittedAt)) {
      if (worktree === undefined || !uploadExists(worktree, upload.path, reach)) continue;
      const facts = { taskId: task.id, path: upload.path, agentCreated: false, createdAt: upload.uploadedAt, modifiedAt: upload.uploadedAt };
      entries.set(upload.path, { ...entries.get(upload.path), facts, upload: true });
    }
    return [...entries.values()];
  }

  /** Why the task will not have a worktree soon, or undefined while it is about to get one. */
  function whyNoWorktree(task: TaskDetail): string | undefined {
    if (task.status === 'queued' && (task.unmetDependencies.length > 0 || task.blockedBy !== undefined)) {
      return `Task ${task.id} is waiting (${task.blockedBy ?? `for ${task.unmetDependencies.map((d) => d.id).join(', ')}`}) and has no worktree yet; upload once it has started.`;
    }
    if (task.status !== 'queued' && task.status !== 'in-progress') return `Task ${task.id} ended (${task.status}) before it had a worktree; resubmit it.`;
    return undefined;
  }

  function waitForWorktree(taskId: string): Promise<string> {
    const timeoutMs = deps.worktreeWaitMs ?? 20_000;
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        unsubscribe();
        settle();
      };
      const check = () => {
        try {
          const task = deps.tasks.detail(taskId);
          const reason = task.worktreePath === undefined ? whyNoWorktree(task) : undefined;
          if (task.worktreePath !== undefined) finish(() => resolve(task.worktreePath as string));
          else if (reason !== undefined) finish(() => reject(noWorktree(reason)));
        } catch (error) {
          finish(() => reject(error));
        }
      };
      // The runner records the agent's start right after the worktree is ready, so an event of the task is the cue to look.
      const unsubscribe = deps.bus.subscribe((event) => { if (event.taskId === taskId) check(); });
      const timer = setTimeout(() => finish(() => reject(noWorktree(
        `Task ${taskId} has not started within ${Math.round(timeoutMs / 1000)} s, so it has no worktree yet; upload once it runs.`))), timeoutMs);
      check();
    });
  }

  return {
    async forTask(task, turns) {
      return (await collect(task, turns)).map((entry) => toApArtifact(entry.facts));
    },

    async forTurn(task, turns, turn) {
      if (turn.commit === undefined) return [];
      const uploaded = new Set(records.uploads(task.id, task.submittedAt).map((u) => u.path));
      const at = turn.finishedAt ?? task.updatedAt;
      return (await files.ofCommit(turn.commit)).map((path) => toApArtifact({ taskId: task.id, path, agentCreated: !uploaded.has(path), createdAt: at, modifiedAt: at }));
    },

    async read(task, turns, artifactId) {
      const entry = (await collect(task, turns)).find((e) => artifactIdFor(task.id, e.facts.path) === artifactId);
      if (!entry) throw artifactNotFound(`Task ${task.id} has no artifact ${artifactId}.`);
      const fileName = entry.facts.path.split('/').at(-1) as string;
      // An upload is served as it is in the worktree now; a committed file as the task's latest commit has it.
      const worktree = task.worktreePath;
      const fromWorktree = entry.upload && worktree !== undefined ? await readUpload(worktree, entry.facts.path, await deps.reachOf?.(worktree)) : undefined;
      const data = fromWorktree ?? (entry.head !== undefined ? await files.read(entry.head, entry.facts.path) : undefined);
      if (!data) throw artifactNotFound(`Artifact ${artifactId} (${entry.facts.path}) of task ${task.id} is no longer there.`);
      return { fileName, data };
    },

    async upload(taskId, { fileName, relativePath, data }) {
      const path = uploadPathFor(relativePath, fileName);
      const worktree = await waitForWorktree(taskId);
      await writeUpload(worktree, path, data, await deps.reachOf?.(worktree));
      const at = deps.now().toISOString();
      records.putUpload(taskId, deps.tasks.detail(taskId).submittedAt, path, at);
      return toApArtifact({ taskId, path, agentCreated: false, createdAt: at, modifiedAt: at });
    },
  };
}
