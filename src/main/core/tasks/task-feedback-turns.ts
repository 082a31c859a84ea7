// Turns that address a request's feedback: a person's choice (`…/pull-request/address`) or `forge.autoAddress` queues a
// follow-up turn whose prompt quotes the comments and failed checks; when it ends with a new commit, the commit is
// pushed to the request's branch (never forced), what it addressed is marked so, and (`forge.replyWhenAddressed`) each
// thread gets a reply naming the commit.
import { deskError } from '../../../shared/desk-error';
import { feedbackWords } from '../../../shared/feedback-summary';
import type { PullRequest } from '../../../shared/pull-request';
import type { AddressFeedback, AddressingTurn } from '../../../shared/pull-request-feedback';
import { FINISHED_STATUSES } from '../../../shared/task';
import type { GitService } from '../git/git-service';
import type { TaskPatch, TaskRecord } from '../store/tasks-repo';
import { addressedReply, addressPrompt, autoChoice, chooseFeedback, markAddressed, type Chosen } from './pull-request-feedback';
import { taskBusy } from './task-errors';
import { noun, type ForgeLink } from './task-pull-requests';

export interface TaskFeedbackTurns {
  /** Queues a turn addressing the chosen feedback; `no_pull_request` (404), `task_busy` (409) while the agent works. */
  addressFeedback(id: string, input: AddressFeedback): Promise<TaskRecord>;
}

export interface TaskFeedbackTurnsDeps {
  link: ForgeLink;
  gitOf(task: TaskRecord): Pick<GitService, 'push'>;
  mustGet(id: string): TaskRecord;
  save(id: string, patch: TaskPatch): TaskRecord;
  log(task: TaskRecord, text: string, level?: 'info' | 'warn' | 'error'): void;
  withTaskLock<T>(id: string, work: () => Promise<T>): Promise<T>;
  followUp(id: string, prompt: string): Promise<TaskRecord>;
  now(): Date;
}

export interface FeedbackTurnHooks {
  /** Called when any turn of a task ended: pushes an addressing turn's commit. */
  afterTurn(id: string): Promise<void>;
  /** Called after a read of a task's request: starts a turn on new feedback where `forge.autoAddress` says so. */
  afterRead(id: string): Promise<void>;
}

/** "2 comments and 1 failed check"; "a note" for a turn on the person's note alone. */
const feedbackCount = (comments: number, checks: number) => feedbackWords(comments, checks, ' and ') ?? 'a note';

export function createTaskFeedbackTurns(deps: TaskFeedbackTurnsDeps): TaskFeedbackTurns & FeedbackTurnHooks {
  const { mustGet, save, log, withTaskLock } = deps;
  /** Tasks told once that their automatic turns are used up. */
  const capSaid = new Set<string>();

  /** Saves the turn on the request (in the task's lock), queues it outside the lock, and takes it back if that fails. */
  async function start(id: string, decide: (task: TaskRecord, pullRequest: PullRequest) => { chosen: Chosen; extra?: Partial<PullRequest>; auto: boolean; why: string } | undefined): Promise<TaskRecord | undefined> {
    const started = await withTaskLock(id, async () => {
      const task = mustGet(id);
      const pullRequest = task.pullRequest;
      if (!pullRequest) throw deskError('not_found', 'no_pull_request', `Task ${id} has no pull or merge request; open one first (POST /api/tasks/${id}/pull-request).`);
      if (!FINISHED_STATUSES.includes(task.status)) throw taskBusy(`Task ${id} is ${task.status}; address the feedback once its agent has finished.`);
      if (pullRequest.addressing) throw taskBusy(`Task ${id} already has a turn addressing feedback on its way.`);
      if (pullRequest.state !== 'open') throw deskError('conflict', 'pull_request_not_open', `The ${noun(pullRequest)} of ${id} is ${pullRequest.state}; only an open one takes new commits.`);
      // The turn's commit goes to the forge: a missing remote or token is said now, not after the agent worked.
      await deps.link.connect(task);
      const decided = decide(task, pullRequest);
      if (!decided) return undefined;
      const { chosen, extra, auto, why } = decided;
      const addressing: AddressingTurn = {
        commentIds: chosen.comments.map((comment) => comment.id), checks: chosen.checks.map((check) => check.name), auto, requestedAt: deps.now().toISOString(),
        ...(task.commit && { fromCommit: task.commit }),
      };
      log(save(id, { pullRequest: { ...pullRequest, ...extra, addressing } }), why);
      return { prompt: addressPrompt(chosen, { noun: noun(pullRequest), url: pullRequest.url }) };
    });
    if (!started) return undefined;
    try {
      return await deps.followUp(id, started.prompt);
    } catch (error) {
      await withTaskLock(id, async () => { clearAddressing(mustGet(id)); });
      throw error;
    }
  }

  function clearAddressing(task: TaskRecord, patch: Partial<PullRequest> = {}): TaskRecord {
    if (!task.pullRequest) return task;
    const { addressing: _done, ...pullRequest } = task.pullRequest;
    return save(task.id, { pullRequest: { ...pullRequest, ...patch } });
  }

  async function reply(task: TaskRecord, link: Awaited<ReturnType<ForgeLink['connect']>>, pullRequest: PullRequest, commentIds: readonly string[], commit: string): Promise<void> {
    const comments = (pullRequest.feedback?.comments ?? []).filter((comment) => commentIds.includes(comment.id));
    // One reply per thread, however many of its comments the turn addressed.
    const threads = new Map(comments.map((comment) => [comment.thread ?? comment.id, comment]));
    let failed = 0;
    for (const comment of threads.values()) {
      try {
        await link.api.reply(pullRequest.number, comment, addressedReply(commit));
      } catch {
        failed += 1;
      }
    }
    if (failed > 0) log(task, `Could not reply in ${failed} of ${threads.size} threads on the ${noun(pullRequest)}; the commit is pushed all the same.`, 'warn');
    else if (threads.size > 0) log(task, `Replied in ${threads.size} thread${threads.size === 1 ? '' : 's'} with the commit that addressed ${threads.size === 1 ? 'it' : 'them'}.`);
  }

  return {
    async addressFeedback(id, input) {
      const started = await start(id, (_task, pullRequest) => {
        const chosen = chooseFeedback(pullRequest, input);
        return { chosen, auto: false, why: `Asked to address ${feedbackCount(chosen.comments.length, chosen.checks.length)} on the ${noun(pullRequest)} #${pullRequest.number}.` };
      });
      return started ?? mustGet(id);
    },

    afterTurn(id) {
      return withTaskLock(id, async () => {
        const task = mustGet(id);
        const addressing = task.pullRequest?.addressing;
        if (!task.pullRequest || !addressing || !FINISHED_STATUSES.includes(task.status)) return;
        const pullRequest = task.pullRequest;
        const commit = task.commit;
        if (task.status !== 'completed' || !commit || commit === addressing.fromCommit) {
          clearAddressing(task);
          log(task, task.status === 'completed'
            ? `The turn addressing feedback changed nothing, so nothing was pushed; the feedback stays unaddressed.`
            : `The turn addressing feedback ended ${task.status}; nothing was pushed.`, 'warn');
          return;
        }
        let link: Awaited<ReturnType<ForgeLink['connect']>>;
        try {
          link = await deps.link.connect(task);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          clearAddressing(task, { feedbackError: message });
          log(task, `Could not push the turn's commit to the ${noun(pullRequest)}: ${message}`, 'error');
          return;
        }
        const pushed = await deps.gitOf(task).push(link.remote, pullRequest.head);
        log(task, pushed.message, pushed.ok ? 'info' : 'error');
        if (!pushed.ok) {
          clearAddressing(task, { feedbackError: `The push of ${commit.slice(0, 12)} was refused: ${pushed.message}` });
          return;
        }
        const feedback = pullRequest.feedback && markAddressed(pullRequest.feedback, addressing.commentIds, addressing.checks, commit);
        const saved = clearAddressing(task, { headCommit: commit, ...(feedback && { feedback }) });
        log(saved, `Pushed ${commit.slice(0, 12)} to the ${noun(pullRequest)} #${pullRequest.number}; it addresses ${feedbackCount(addressing.commentIds.length, addressing.checks.length)}.`);
        if (link.config.forge?.replyWhenAddressed) await reply(saved, link, pullRequest, addressing.commentIds, commit);
        // The request as the forge has it now: its new head, and the checks starting on it.
        await deps.link.refresh(mustGet(id)).catch(() => undefined);
      });
    },

    async afterRead(id) {
      const task = mustGet(id);
      const pullRequest = task.pullRequest;
      if (!pullRequest?.feedback?.unaddressed || task.status !== 'completed' || task.archivedAt !== undefined || pullRequest.addressing) return;
      const { config } = await deps.link.connect(task);
      const mode = config.forge?.autoAddress ?? 'off';
      if (mode === 'off') return;
      const max = config.forge?.maxAutoTurns ?? 3;
      const turns = pullRequest.autoTurns ?? 0;
      if (turns >= max) {
        if (pullRequest.feedback?.unaddressed && !capSaid.has(id)) {
          capSaid.add(id);
          log(task, `New feedback waits for a person: forge.autoAddress started the ${max} turns forge.maxAutoTurns allows for this task.`, 'warn');
        }
        return;
      }
      await start(id, (_current, current) => {
        const choice = autoChoice(current, mode, max);
        if (!choice) return undefined;
        const number = (current.autoTurns ?? 0) + 1;
        return {
          chosen: choice, auto: true,
          extra: { autoTurns: number, autoTried: [...(current.autoTried ?? []), ...choice.keys].slice(-500) },
          why: `forge.autoAddress "${mode}" started turn ${number} of ${max} by itself, for new feedback on the ${noun(current)} #${current.number}: ${feedbackCount(choice.comments.length, choice.checks.length)}.`,
        };
      });
    },
  };
}
