// The board's tasks (summaries from the core, details and diffs of the task being looked at) and what
// a person can do to them. Every action is one request; the result arrives as events on the socket.
import type { EventEnvelope } from '../../../shared/events';
import type { TaskDiff } from '../../../shared/review';
import type { AnswerInput, AttentionFile, TaskDetail, TaskSummary } from '../../../shared/task';
import { ACTIVE_STATUSES } from '../../../shared/task-status-labels';
import { ApiError, messageOf } from '../api/api-error';
import type { DeskApi, NewTask, TaskListRequest } from '../api/desk-api';
import { attempt as attemptShown } from './attempt';
import { attentionRefusalOf } from './attention-refusal';
import { EMPTY_BOARD, loadBoard, mergeTasks, type BoardData } from './board-reducer';
import type { SliceCreator } from './store-types';

export interface DiffState { loading: boolean; data?: TaskDiff; error?: string; commit?: string }

export interface TasksSlice extends BoardData {
  api: DeskApi | undefined;
  loadState: 'idle' | 'loading' | 'ready' | 'unauthorized' | 'failed';
  loadError: string | undefined;
  /** Prompts of tasks whose details were read, so the search finds them too. */
  prompts: Record<string, string>;
  details: Record<string, TaskDetail>;
  diffs: Record<string, DiffState>;
  /** Where the next page of finished tasks (Done, Stopped) starts; undefined when every one is loaded. */
  finishedNext: number | undefined;
  /** How many finished tasks the core holds, loaded or not. */
  finishedTotal: number;
  start(api: DeskApi): Promise<void>;
  /** Loads the next page of older finished tasks. */
  loadMoreFinished(): Promise<void>;
  loadDetail(id: string): Promise<void>;
  loadDiff(id: string): Promise<void>;
  taskEventsApplied(events: readonly EventEnvelope[]): void;
  /** Throws ApiError, so the dialog can keep what the person typed and show why. */
  createTask(task: NewTask): Promise<void>;
  linkTask(id: string, dependency: string): Promise<boolean>;
  unlinkTask(id: string, dependency: string): Promise<boolean>;
  cancelTask(id: string): Promise<boolean>;
  /**
   * Approves (merges) a task. A task with files that run on this machine is refused by the desk until confirmed: the
   * board then asks once, listing them (`confirm-attention`), and approves again with `confirmAttention`.
   */
  approveTask(id: string, options?: { confirmAttention?: boolean }): Promise<boolean>;
  rejectTask(id: string): Promise<boolean>;
  rerunTask(id: string): Promise<boolean>;
  /** A task an agent proposed: let it run, or turn it down. */
  acceptProposal(id: string): Promise<boolean>;
  dismissProposal(id: string): Promise<boolean>;
  answerQuestion(id: string, input: AnswerInput): Promise<boolean>;
  sendFollowUp(id: string, prompt: string): Promise<boolean>;
}

/** Active work is shown in full; finished work (Done, Stopped) a page at a time, newest first. */
const ACTIVE: TaskListRequest = { status: [...ACTIVE_STATUSES] };
const IN_REVIEW: TaskListRequest = { status: ['completed'], review: ['pending'], archived: false };
const FINISHED: TaskListRequest = { status: ['completed', 'error', 'cancelled'], order: 'desc', archived: false };
const PAGE = 1000;
export const FINISHED_PAGE = 200;

/** Every page of a list; the lastSeq of the first answer, so the events socket misses nothing said meanwhile. */
async function loadAll(client: DeskApi, query: TaskListRequest): Promise<{ tasks: TaskSummary[]; lastSeq: number }> {
  const first = await client.listTasks({ ...query, limit: PAGE });
  const tasks = [...first.tasks];
  for (let next = first.next; next !== undefined;) {
    const page = await client.listTasks({ ...query, limit: PAGE, after: next });
    tasks.push(...page.tasks);
    next = page.next;
  }
  return { tasks, lastSeq: first.lastSeq };
}

export const createTasksSlice: SliceCreator<TasksSlice> = (set, get) => {
  const api = (): DeskApi => {
    const client = get().api;
    if (!client) throw new ApiError(0, 'network_error', 'Not connected to a desk yet.');
    return client;
  };
  /** Runs one request; a refusal becomes the page's alert with the server's message. */
  const attempt = (work: () => Promise<unknown>, done?: string): Promise<boolean> => attemptShown(get, async () => {
    await work();
    return done;
  });
  let detailTimer: ReturnType<typeof setTimeout> | undefined;

  return {
    ...EMPTY_BOARD,
    api: undefined,
    loadState: 'idle',
    loadError: undefined,
    prompts: {},
    details: {},
    diffs: {},
    finishedNext: undefined,
    finishedTotal: 0,

    async start(client) {
      set({ api: client, loadState: 'loading', loadError: undefined });
      try {
        const [active, review, finished] = await Promise.all([
          loadAll(client, ACTIVE), loadAll(client, IN_REVIEW), client.listTasks({ ...FINISHED, limit: FINISHED_PAGE }),
        ]);
        const tasks = [...finished.tasks, ...review.tasks, ...active.tasks];
        set((state) => ({
          ...loadBoard(tasks, Math.min(active.lastSeq, review.lastSeq, finished.lastSeq), state), finishedNext: finished.next, finishedTotal: finished.total, loadState: 'ready',
        }));
        get().connectEvents();
        // A task opened from the URL before the desk answered: read its history and detail now.
        const open = get().openTaskId;
        if (open) {
          get().closeStream(open);
          get().openStream(open);
          void get().loadDetail(open);
        }
      } catch (error) {
        const unauthorized = error instanceof ApiError && error.status === 401;
        set({ loadState: unauthorized ? 'unauthorized' : 'failed', loadError: messageOf(error) });
      }
    },

    async loadMoreFinished() {
      const after = get().finishedNext;
      if (after === undefined || !get().api) return;
      try {
        const page = await api().listTasks({ ...FINISHED, limit: FINISHED_PAGE, after });
        // A second click while the first page was on its way must not add the same page twice.
        if (get().finishedNext !== after) return;
        set((state) => ({ ...mergeTasks(state, page.tasks), finishedNext: page.next, finishedTotal: page.total }));
      } catch (error) {
        get().showAlert(messageOf(error));
      }
    },

    async loadDetail(id) {
      if (!get().api) return;
      try {
        const detail = await api().task(id);
        set((state) => ({ details: { ...state.details, [id]: detail }, prompts: { ...state.prompts, [id]: detail.prompt } }));
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) get().showAlert(messageOf(error));
      }
    },

    async loadDiff(id) {
      const commit = get().tasks[id]?.commit;
      set((state) => ({ diffs: { ...state.diffs, [id]: { ...state.diffs[id], loading: true, commit } } }));
      try {
        const data = await api().diff(id);
        set((state) => ({ diffs: { ...state.diffs, [id]: { loading: false, data, commit } } }));
      } catch (error) {
        set((state) => ({ diffs: { ...state.diffs, [id]: { loading: false, error: messageOf(error), commit } } }));
      }
    },

    taskEventsApplied(events) {
      // The open task's detail (turns, blockedBy, errorMessage) follows its summary; one read per burst.
      const open = get().openTaskId;
      if (!open || !events.some((envelope) => envelope.taskId === open && envelope.event.type === 'task')) return;
      clearTimeout(detailTimer);
      detailTimer = setTimeout(() => void get().loadDetail(open), 150);
    },

    async createTask(task) {
      await api().submit(task);
      get().showStatus(`Task ${task.id} was submitted.`);
    },
    linkTask: (id, dependency) => attempt(() => api().addDependency(id, dependency), `Task ${id} now waits for ${dependency}.`),
    unlinkTask: (id, dependency) => attempt(() => api().removeDependency(id, dependency), `Task ${id} no longer waits for ${dependency}.`),
    cancelTask: (id) => attempt(() => api().cancel(id), `Task ${id} was cancelled.`),
    async approveTask(id, options = {}) {
      let files: AttentionFile[] | undefined;
      const approved = await attempt(async () => {
        try {
          await (options.confirmAttention ? api().approve(id, { confirmAttention: true }) : api().approve(id));
        } catch (error) {
          files = attentionRefusalOf(error);
          if (files === undefined) throw error;
          return;
        }
        const base = get().details[id]?.baseBranch ?? get().settings?.baseBranch ?? 'the base branch';
        get().showStatus(`Approved ${id}: its work is merged into ${base}.`);
      });
      if (files === undefined) return approved;
      get().openDialog({ kind: 'confirm-attention', tasks: [{ id, files }], bulk: false });
      return false;
    },
    rejectTask: (id) => attempt(() => api().reject(id), `Rejected ${id}: its branch is archived; your own work is untouched.`),
    rerunTask: (id) => attempt(() => api().rerun(id), `Task ${id} runs again.`),
    acceptProposal: (id) => attempt(() => api().acceptProposal(id), `Accepted ${id}: it is queued and runs when its turn comes.`),
    dismissProposal: (id) => attempt(() => api().dismissProposal(id), `Dismissed ${id}: it will not run.`),
    answerQuestion: (id, input) => attempt(() => api().answer(id, input), answeredText(input)),
    sendFollowUp: (id, prompt) => attempt(() => api().followUp(id, prompt), `Follow-up sent to ${id}.`),
  };
};

/** What the board says once an answer is sent: the desk's question which attempt to keep is answered by keeping one. */
function answeredText(input: AnswerInput): string {
  const kept = 'optionId' in input ? /^attempt-(\d+)$/.exec(input.optionId) : null;
  return kept ? `Kept attempt ${kept[1]}; the other attempts' branches are archived.` : 'Answer sent; the agent goes on.';
}
