// The Agent Protocol on the desk's core: AP tasks are desk tasks (same board, same agents and worktrees), steps
// are the agent's turns, artifacts the task's files. Loads facts, asks the pure rules, calls the task service.
import { randomUUID } from 'node:crypto';
import type {
  ApArtifact, ApArtifactList, ApPageQuery, ApStep, ApStepList, ApStepRequest, ApTask, ApTaskList, ApTaskRequest,
} from '../../../shared/agent-protocol';
import type { TaskDetail } from '../../../shared/task';
import type { ApQueuedStep, ApRecordsRepo } from '../store/ap-records-repo';
import type { TurnRecord } from '../store/turns-repo';
import type { TaskService } from '../tasks/task-service';
import type { ApArtifacts, Upload } from './ap-artifacts';
import { stepNotFound } from './ap-errors';
import { paginate, toApStep, toApTask, toQueuedApStep, turnOfStepId } from './ap-mapping';
import { decideStep } from './step-input';
import type { StepQueue } from './step-queue';

export interface AgentProtocol {
  createTask(request: ApTaskRequest): Promise<ApTask>;
  listTasks(page: ApPageQuery): Promise<ApTaskList>;
  /** Throws `task_not_found`. */
  getTask(taskId: string): Promise<ApTask>;
  listSteps(taskId: string, page: ApPageQuery): Promise<ApStepList>;
  /** Throws `task_not_found`, `step_not_found`. */
  getStep(taskId: string, stepId: string): Promise<ApStep>;
  /** Reports, answers, follows up or queues (see decideStep); returns the step it concerns. */
  executeStep(taskId: string, request: ApStepRequest): Promise<ApStep>;
  listArtifacts(taskId: string, page: ApPageQuery): Promise<ApArtifactList>;
  /** Throws `task_not_found`, `artifact_not_found`. */
  readArtifact(taskId: string, artifactId: string): Promise<{ fileName: string; data: Buffer }>;
  uploadArtifact(taskId: string, upload: Upload): Promise<ApArtifact>;
}

export interface AgentProtocolDeps {
  tasks: TaskService;
  records: ApRecordsRepo;
  artifacts: ApArtifacts;
  queue: StepQueue;
}

/** A step: one of the agent's turns, or one sent while it worked that waits to become the turn numbered `turn`. */
type StepSource = { turn: TurnRecord } | { queued: ApQueuedStep; turn: number };
const numberOf = (source: StepSource): number => (typeof source.turn === 'number' ? source.turn : source.turn.turn);

export function createAgentProtocol(deps: AgentProtocolDeps): AgentProtocol {
  const { tasks, records, artifacts, queue } = deps;

  /** The task and its turns with their output (the task detail leaves the agent's text out). */
  function load(taskId: string): { task: TaskDetail; turns: TurnRecord[] } {
    const task = tasks.detail(taskId);
    return { task, turns: tasks.turns(taskId) };
  }

  async function apTask(taskId: string): Promise<ApTask> {
    const { task, turns: list } = load(taskId);
    return toApTask(task, records.taskInput(taskId, task.submittedAt), await artifacts.forTask(task, list));
  }

  async function apStep(task: TaskDetail, list: readonly TurnRecord[], turn: TurnRecord): Promise<ApStep> {
    return toApStep(task, turn, await artifacts.forTurn(task, list, turn));
  }

  function stepSources(taskId: string, list: readonly TurnRecord[]): StepSource[] {
    const latest = list.at(-1)?.turn ?? 0;
    return [...list.map((turn) => ({ turn })), ...queue.pending(taskId).map((queued, index) => ({ queued, turn: latest + 1 + index }))];
  }

  function stepOf(task: TaskDetail, list: readonly TurnRecord[], source: StepSource): Promise<ApStep> {
    return 'queued' in source ? Promise.resolve(toQueuedApStep(task.id, source.queued, source.turn)) : apStep(task, list, source.turn);
  }

  async function latestStep(taskId: string): Promise<ApStep> {
    const { task, turns: list } = load(taskId);
    const latest = list.at(-1);
    if (!latest) throw stepNotFound(`Task ${taskId} has no steps.`);
    return apStep(task, list, latest);
  }

  return {
    async createTask({ input, additional_input: sent }) {
      const id = randomUUID();
      const extra = sent ?? {};
      await tasks.submit({ id, prompt: input, dependencies: extra.dependencies ?? [], ...(extra.agent !== undefined && { agent: extra.agent }) });
      records.putTaskInput(id, tasks.detail(id).submittedAt, extra);
      return apTask(id);
    },

    async listTasks(page) {
      const { items, pagination } = paginate(tasks.list(), page);
      return { tasks: await Promise.all(items.map((summary) => apTask(summary.id))), pagination };
    },

    getTask: apTask,

    async listSteps(taskId, page) {
      const { task, turns: list } = load(taskId);
      const { items, pagination } = paginate(stepSources(taskId, list), page);
      return { steps: await Promise.all(items.map((source) => stepOf(task, list, source))), pagination };
    },

    async getStep(taskId, stepId) {
      const { task, turns: list } = load(taskId);
      const number = turnOfStepId(taskId, stepId);
      const source = number === undefined ? undefined : stepSources(taskId, list).find((s) => numberOf(s) === number);
      if (!source) throw stepNotFound(`Task ${taskId} has no step ${stepId}.`);
      return stepOf(task, list, source);
    },

    async executeStep(taskId, request) {
      const task = tasks.detail(taskId);
      const waiting = queue.pending(taskId);
      const action = decideStep({
        taskId, status: task.status, taskInput: task.prompt, turns: task.turns.length, queued: waiting.length, openQuestions: task.openQuestions ?? [],
      }, request);
      if (action.kind === 'queue') return toQueuedApStep(taskId, queue.enqueue(taskId, action.prompt), task.turns.length + waiting.length + 1);
      if (action.kind === 'answer') tasks.answer(taskId, action.answer);
      if (action.kind === 'follow-up') await tasks.followUp(taskId, action.prompt);
      return latestStep(taskId);
    },

    async listArtifacts(taskId, page) {
      const { task, turns: list } = load(taskId);
      const { items, pagination } = paginate(await artifacts.forTask(task, list), page);
      return { artifacts: items, pagination };
    },

    async readArtifact(taskId, artifactId) {
      const { task, turns: list } = load(taskId);
      return artifacts.read(task, list, artifactId);
    },

    uploadArtifact: (taskId, upload) => artifacts.upload(taskId, upload),
  };
}
