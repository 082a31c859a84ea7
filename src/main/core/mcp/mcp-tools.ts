// What each MCP tool does for the calling task's agent, without the SDK: every call is a governance request the
// policy decides (approved, rejected, or escalated to a person) and the audit log records, then the task service acts.
import type { z } from 'zod';
import type { GovernanceRecord } from '../../../shared/governance';
import type { LinkDependencyInput, ListTasksInput, ProposeTaskInput, ReadDiffInput } from '../../../shared/mcp';
import type { TaskDiff } from '../../../shared/review';
import type { GovernanceService, ReviewInput } from '../governance/governance-service';
import { toHttpError } from '../http/domain-errors';
import { parseBody } from '../http/request-body';
import { SubmitTask } from '../../../shared/task';
import type { TaskService } from '../tasks/task-service';

/** The task whose token came with the call. */
export interface McpCaller { taskId: string; agentId: string; worktree: string }

/** A tool's answer: a value for the agent, or the error a client of the HTTP API would get for the same thing. */
export type ToolAnswer = { ok: true; value: unknown } | { ok: false; error: { error: string; code?: string; message: string } };

export interface McpToolsDeps {
  tasks: Pick<TaskService, 'list' | 'setDependencies' | 'diff' | 'proposals' | 'summary'>;
  governance: Pick<GovernanceService, 'review' | 'complete' | 'admitAgentRequest'>;
}

export interface McpTools {
  listTasks(caller: McpCaller, input: ListTasksInput): Promise<ToolAnswer>;
  proposeTask(caller: McpCaller, input: z.output<typeof ProposeTaskInput>): Promise<ToolAnswer>;
  linkDependency(caller: McpCaller, input: LinkDependencyInput): Promise<ToolAnswer>;
  readDiff(caller: McpCaller, input: ReadDiffInput): Promise<ToolAnswer>;
}

/** Texts of a diff shown to an agent stop here; the board shows the rest. */
const DIFF_TEXT_LIMIT = 200_000;

export function createMcpTools(deps: McpToolsDeps): McpTools {
  const { governance } = deps;

  /**
   * Reviews the call, runs `work` when the policy approves, and closes the audit request with what happened.
   * `holdWhenEscalated`: the work runs even when a person must decide, and leaves the request open for that person.
   */
  async function governed(caller: McpCaller, request: Pick<ReviewInput, 'kind' | 'title'>, work: (record: GovernanceRecord) => Promise<unknown>,
    holdWhenEscalated = false): Promise<ToolAnswer> {
    try {
      // Tool calls count against the agent's requests per minute, like its /agent/request calls.
      governance.admitAgentRequest(caller.agentId);
    } catch (error) {
      return { ok: false, error: toHttpError(error).body() };
    }
    const record = governance.review({
      agentId: caller.agentId, taskId: caller.taskId, source: 'mcp', kind: request.kind, title: request.title, paths: [], worktree: caller.worktree,
    });
    if (record.decision === 'rejected') {
      governance.complete(record.id, { outcome: 'rejected' });
      return refusal('policy_rejected', `The desk's policy refused this (${record.rule}): ${record.reason}`);
    }
    const held = record.decision === 'escalated';
    if (held && !holdWhenEscalated) {
      // A tool call cannot wait for a person: it is declined, and the person sees it in the audit log.
      governance.complete(record.id, { outcome: 'declined' });
      return refusal('needs_person', `The desk's policy wants a person to decide this (${record.reason}); it was not done.`);
    }
    try {
      const value = await work(record);
      if (!held) governance.complete(record.id, { outcome: 'done' });
      return { ok: true, value };
    } catch (error) {
      governance.complete(record.id, { outcome: 'failed' });
      const body = toHttpError(error).body() as { error: string; code?: string; message: string };
      return { ok: false, error: body };
    }
  }

  return {
    listTasks: (caller, input) => governed(caller, { kind: 'read', title: 'List the desk\'s tasks' }, async () => deps.tasks.list()
      .filter((task) => input.status === undefined || task.status === input.status)
      .map((task) => ({
        id: task.id, title: task.title, status: task.status, review: task.review, dependencies: task.dependencies, agent: task.agent,
        ...(task.proposedBy !== undefined && { proposedBy: task.proposedBy }), ...(task.proposal !== undefined && { proposal: task.proposal }),
        ...(task.blockedBy !== undefined && { blockedBy: task.blockedBy }),
      }))),

    proposeTask: (caller, input) => governed(caller, { kind: 'propose', title: `Propose task ${input.id}: ${input.prompt.split('\n', 1)[0] ?? ''}` }, async (record) => {
      const accepted = record.decision === 'approved';
      // Checked as POST / checks a submission (choose without attempts, a judge without attempts, ...).
      const submission = parseBody(SubmitTask, {
        id: input.id, prompt: input.prompt, dependencies: input.dependencies,
        ...(input.attempts && { attempts: input.attempts }), ...(input.choose && { choose: input.choose }), ...(input.judge !== undefined && { judge: input.judge }),
      });
      const task = await deps.tasks.proposals.propose(
        submission,
        { by: caller.taskId, accepted, ...(!accepted && { requestId: record.id }) },
      );
      const summary = deps.tasks.summary(task.id);
      return { id: summary.id, status: summary.status, proposal: summary.proposal, proposedBy: summary.proposedBy,
        note: accepted ? 'The policy accepted the proposal; the task is queued.' : 'The task waits until a person accepts the proposal.' };
    }, true),

    linkDependency: (caller, input) => governed(caller, { kind: 'link', title: `Make task ${input.task} wait for ${input.dependsOn}` }, async () => {
      const current = deps.tasks.summary(input.task);
      const updated = await deps.tasks.setDependencies(input.task, [...current.dependencies, input.dependsOn]);
      return { id: updated.id, dependencies: updated.dependencies };
    }),

    readDiff: (caller, input) => governed(caller, { kind: 'read', title: `Read the diff of task ${input.task}` }, async () => diffText(await deps.tasks.diff(input.task))),
  };
}

function refusal(code: string, message: string): ToolAnswer {
  return { ok: false, error: { error: 'forbidden', code, message } };
}

/** The diff as text an agent reads: each file's change, then its texts before and after (bounded). */
export function diffText(diff: TaskDiff): string {
  const parts = [`Changes from ${diff.base.slice(0, 12)} to ${diff.head.slice(0, 12)}: ${diff.files.length} file(s)`];
  let budget = DIFF_TEXT_LIMIT;
  for (const file of diff.files) {
    parts.push(`\n## ${file.oldPath ? `${file.oldPath} → ` : ''}${file.path} (${file.status}, +${file.additions} -${file.deletions})`);
    if (file.binary || file.tooLarge) {
      parts.push(file.binary ? '(binary)' : '(too large to show)');
      continue;
    }
    for (const [label, text] of [['before', file.oldText], ['after', file.newText]] as const) {
      if (text === undefined) continue;
      const shown = text.slice(0, Math.max(0, budget));
      budget -= shown.length;
      parts.push(`--- ${label} ---\n${shown}${shown.length < text.length ? '\n(cut here: the board shows the rest)' : ''}`);
    }
  }
  return parts.join('\n');
}
