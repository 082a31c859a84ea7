// What happens when an agent asks for permission, asks a question, touches a file or starts a terminal:
// governance decides, and what it escalates waits for a person as an open question on the task. A person's "Always allow"
// is kept here for the rest of the task, never handed to the agent.
import { resolve } from 'node:path';
import type { TaskEvent } from '../../../shared/events';
import type { QuestionAnswer } from '../../../shared/questions';
import type { ElicitationRequest, ElicitationResponse, PermissionOutcome, PermissionRequest } from '../agents/agent-session';
import { INVALID_PARAMS, JsonRpcError } from '../../../shared/json-rpc-peer';
import type { TaskRecord } from '../store/tasks-repo';
import type { TaskGrantsRepo } from '../store/task-grants-repo';
import { capabilityOf } from '../governance/policy';
import type { OpenQuestions } from './open-questions';
import { alwaysAllowAnswer, outcomeFor, permissionFacts, toolCallCommand } from './permission-facts';

/** The governance policy as the task service needs it. */
export interface PermissionGate {
  /** Opens an APPROVAL request in the audit log with the policy's decision; it stays open until `complete`. */
  review(input: { agentId: string; taskId: string; kind: string; title: string; paths: string[]; command?: string; worktree: string; alwaysAllowed?: readonly string[] }):
    Promise<GateDecision> | GateDecision;
  /** Closes the request in the audit log with what finally happened. */
  complete(requestId: string, result: { outcome: string; answeredBy?: string }): void;
  /** Closes as cancelled every request of the task still open (its agent is gone, e.g. after a crash). */
  closeOpen(taskId: string): void;
}

export interface GateDecision { id: string; decision: 'approved' | 'rejected' | 'escalated'; rule: string; reason: string }

export interface AgentRequestsDeps {
  gate: PermissionGate;
  questions: OpenQuestions;
  /** "Always allow" answers, kept for the rest of the task (see docs/security.md). */
  grants: Pick<TaskGrantsRepo, 'capabilitiesOf' | 'add'>;
  record(task: TaskRecord, event: TaskEvent): void;
  /** Called when the task starts or stops waiting for a person. */
  setWaiting(task: TaskRecord, waiting: boolean): void;
  now(): Date;
}

/** The answers offered to a person for a file access or a terminal command that the policy says to ask about. */
const ALLOW_OR_REJECT = [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' }];

export function createAgentRequests(deps: AgentRequestsDeps) {
  const { gate, questions } = deps;

  async function askPerson(task: TaskRecord, fields: Parameters<OpenQuestions['open']>[0]): Promise<{ answer: QuestionAnswer; answeredBy: string }> {
    const { question, answered } = questions.open(fields, deps.now().toISOString());
    deps.record(task, { type: 'question-opened', question });
    deps.setWaiting(task, true);
    const answer = await answered;
    const answeredBy = 'cancelled' in answer ? 'desk' : 'person';
    deps.record(task, { type: 'question-answered', questionId: question.id, answer, answeredBy });
    if (questions.forTask(task.id).length === 0) deps.setWaiting(task, false);
    return { answer, answeredBy };
  }

  function recordDecision(task: TaskRecord, decision: GateDecision): void {
    deps.record(task, { type: 'governance', requestId: decision.id, decision: decision.decision, rule: decision.rule, reason: decision.reason });
  }

  /** The policy's decision, with the capabilities a person chose "Always allow" for earlier in the task approved. */
  async function decide(task: TaskRecord, input: Omit<Parameters<PermissionGate['review']>[0], 'agentId' | 'taskId' | 'alwaysAllowed'>): Promise<GateDecision> {
    const alwaysAllowed = deps.grants.capabilitiesOf(task.id, task.agent);
    return gate.review({ agentId: task.agent, taskId: task.id, ...input, ...(alwaysAllowed.length > 0 && { alwaysAllowed }) });
  }

  /** decide, and the decision said in the task's activity. */
  async function review(task: TaskRecord, input: Parameters<typeof decide>[1]): Promise<GateDecision> {
    const decision = await decide(task, input);
    recordDecision(task, decision);
    return decision;
  }

  /**
   * A person chose "Always allow": the desk keeps that for the task's agent and this capability for the rest of the task,
   * and answers the agent with its "allow once" option, so it writes no standing permission of its own (for Claude Code,
   * into `.claude/settings.local.json` in the worktree). Returns the option to send.
   */
  function grantAlways(task: TaskRecord, request: PermissionRequest, kind: string, requestId: string, chosen: { optionId: string; name: string }): string {
    const capability = capabilityOf(kind);
    const once = alwaysAllowAnswer(request.options);
    const answered = once === undefined
      ? `The agent offered no "allow once" answer, so it was sent "${chosen.name}" as chosen.`
      : `The agent was answered "${once.name}" (once), so it keeps no standing permission of its own.`;
    try {
      deps.grants.add({ taskId: task.id, agent: task.agent, capability, requestId, grantedAt: deps.now().toISOString() });
    } catch (error) {
      // The request itself was allowed by the person: it goes through even when the answer cannot be kept (a full disk).
      deps.record(task, {
        type: 'log', level: 'warn', source: 'desk',
        text: `You chose ${chosen.name}, but the desk could not keep that answer (${error instanceof Error ? error.message : String(error)}): this request is allowed, later ones are asked again. ${answered}`,
      });
      return once?.optionId ?? chosen.optionId;
    }
    deps.record(task, {
      type: 'log', level: 'info', source: 'desk',
      text: `You chose ${chosen.name}: the desk approves ${capability} requests of ${task.agent} for the rest of this task without asking. ${answered} Settings → "Always-allow answers" can make it a policy rule.`,
    });
    return once?.optionId ?? chosen.optionId;
  }

  /** What one run (one turn) of a task may ask: each run starts with no command answers carried over ("Always allow" answers are the task's). */
  function forRun(task: TaskRecord) {
    /**
     * Command lines a `session/request_permission` for an `execute` tool call was allowed for in this run,
     * each with the audit record that allowed it. A `terminal/create` whose command line (program and
     * arguments joined by spaces, as the audit log shows it) equals one exactly is covered by that answer
     * and uses it up; any other command, or the same one a second time, is decided on its own. Only a
     * command spelled out in the tool call's raw input counts (`toolCallCommand`), never one guessed from
     * its free-text title; and the question shows that command line (`promptFor`), so the person has
     * seen the very command that will run.
     */
    const allowedCommands: { commandLine: string; requestId: string }[] = [];
    /**
     * Files an allowed `edit` permission request named in this run (resolved against the worktree), each with the
     * answer that allowed it. The agent's write of that file (ACP fs/write_text_file, as claude-code-acp writes after
     * asking) is the action already decided: the policy still checks it, but the activity does not say the same
     * approval twice, and a person who allowed it is not asked again. Used up by that one write.
     */
    const allowedWrites: { path: string; requestId: string; answeredBy?: string }[] = [];

    return {
      async permission(request: PermissionRequest, worktree: string): Promise<PermissionOutcome> {
        const facts = permissionFacts(request);
        const commandLine = facts.kind === 'execute' ? toolCallCommand(request.toolCall) : undefined;
        const decision = await review(task, { worktree, ...facts });
        const allowed = (outcome: PermissionOutcome, answeredBy?: string): PermissionOutcome => {
          if (commandLine !== undefined) allowedCommands.push({ commandLine, requestId: decision.id });
          if (facts.kind === 'edit') {
            for (const path of facts.paths) allowedWrites.push({ path: resolve(worktree, path), requestId: decision.id, ...(answeredBy !== undefined && { answeredBy }) });
          }
          return outcome;
        };
        if (decision.decision !== 'escalated') {
          const outcome = outcomeFor(request.options, decision.decision === 'approved' ? 'allow' : 'reject');
          const said = outcome.outcome === 'cancelled' ? 'cancelled' : decision.decision === 'approved' ? 'allowed' : 'rejected';
          gate.complete(decision.id, { outcome: said });
          return said === 'allowed' ? allowed(outcome) : outcome;
        }
        const { answer, answeredBy } = await askPerson(task, {
          taskId: task.id, kind: 'permission', prompt: promptFor(facts.title, commandLine), options: request.options, toolCall: request.toolCall, governanceRequestId: decision.id,
        });
        if ('optionId' in answer) {
          const chosen = request.options.find((o) => o.optionId === answer.optionId);
          const yes = chosen?.kind.startsWith('allow') === true;
          gate.complete(decision.id, { outcome: yes ? 'allowed' : 'rejected', answeredBy });
          const optionId = chosen?.kind === 'allow_always' ? grantAlways(task, request, facts.kind, decision.id, chosen) : answer.optionId;
          const outcome: PermissionOutcome = { outcome: 'selected', optionId };
          return yes ? allowed(outcome, answeredBy) : outcome;
        }
        gate.complete(decision.id, { outcome: 'cancelled', answeredBy });
        return { outcome: 'cancelled' };
      },

      /**
       * An agent's file read or write (ACP fs/*) passes the same policy: outside the worktree or the
       * allowed paths it is refused, and a capability set to "ask" puts the question to a person.
       */
      async fileAccess(access: { kind: 'read' | 'edit'; path: string }, worktree: string): Promise<void> {
        const title = `${access.kind === 'read' ? 'Read' : 'Write'} ${access.path}`;
        const decision = await decide(task, { worktree, kind: access.kind, title, paths: [access.path] });
        const granted = access.kind === 'edit' && decision.decision !== 'rejected'
          ? allowedWrites.findIndex((grant) => grant.path === resolve(worktree, access.path)) : -1;
        if (granted >= 0) {
          const [grant] = allowedWrites.splice(granted, 1);
          gate.complete(decision.id, { outcome: 'allowed', ...(grant?.answeredBy !== undefined && { answeredBy: grant.answeredBy }) });
          return;
        }
        recordDecision(task, decision);
        let allowed = decision.decision === 'approved';
        let answeredBy: string | undefined;
        if (decision.decision === 'escalated') {
          const asked = await askPerson(task, {
            taskId: task.id, kind: 'permission', prompt: title, options: ALLOW_OR_REJECT, governanceRequestId: decision.id,
            toolCall: { kind: access.kind, title, locations: [{ path: access.path }] },
          });
          allowed = 'optionId' in asked.answer && asked.answer.optionId === 'allow';
          answeredBy = asked.answeredBy;
        }
        gate.complete(decision.id, { outcome: allowed ? 'allowed' : 'rejected', ...(answeredBy !== undefined && { answeredBy }) });
        if (!allowed) throw new JsonRpcError(INVALID_PARAMS, `Access denied: ${decision.decision === 'escalated' ? 'a person refused it' : decision.reason}`);
      },

      /**
       * A terminal command (ACP terminal/create) is decided by the policy whether or not the agent asked
       * permission first: denied patterns and a denied `execute` refuse it, `execute: ask` puts it to a
       * person, and it starts only once allowed. Resolves when it may start; throws (to the agent) otherwise.
       */
      async terminalCommand(commandLine: string, worktree: string, commandCwd?: string): Promise<void> {
        const covered = allowedCommands.findIndex((grant) => grant.commandLine === commandLine);
        if (covered >= 0) {
          const [grant] = allowedCommands.splice(covered, 1);
          deps.record(task, { type: 'log', level: 'info', source: 'desk', text: `Running ${commandLine}: allowed by the answer to permission request ${grant?.requestId ?? '?'}.` });
          return;
        }
        const title = `Run ${commandLine}`;
        const decision = await review(task, { worktree, kind: 'execute', title, paths: [], command: commandLine });
        if (decision.decision === 'approved') {
          gate.complete(decision.id, { outcome: 'allowed' });
          return;
        }
        if (decision.decision === 'rejected') {
          gate.complete(decision.id, { outcome: 'rejected' });
          throw new JsonRpcError(INVALID_PARAMS, `Command refused: ${decision.reason}`);
        }
        const { answer, answeredBy } = await askPerson(task, {
          taskId: task.id, kind: 'permission', prompt: title, options: ALLOW_OR_REJECT, governanceRequestId: decision.id,
          // Where it runs is part of what a person judges; a terminal without a cwd starts in the worktree.
          toolCall: { kind: 'execute', title, rawInput: { command: commandLine, cwd: commandCwd ?? worktree } },
        });
        const outcome = 'optionId' in answer ? (answer.optionId === 'allow' ? 'allowed' : 'rejected') : 'cancelled';
        gate.complete(decision.id, { outcome, answeredBy });
        if (outcome === 'rejected') throw new JsonRpcError(INVALID_PARAMS, 'Command refused: a person rejected it.');
        if (outcome === 'cancelled') throw new JsonRpcError(INVALID_PARAMS, 'Command not run: the task was cancelled before anyone answered.');
      },

      elicitation: (request: ElicitationRequest, worktree: string) => elicitation(task, request, worktree),
    };
  }

  async function elicitation(task: TaskRecord, request: ElicitationRequest, worktree: string): Promise<ElicitationResponse> {
    const decision = await review(task, { worktree, kind: 'elicitation', title: request.message, paths: [] });
    // Even an "allowed" question needs someone to answer it; only a refusal skips the person.
    if (decision.decision === 'rejected') {
      gate.complete(decision.id, { outcome: 'declined' });
      return { action: 'decline' };
    }
    const { answer, answeredBy } = await askPerson(task, {
      taskId: task.id, kind: 'elicitation', prompt: request.message, governanceRequestId: decision.id,
      ...(request.requestedSchema !== undefined && { requestedSchema: request.requestedSchema }),
    });
    if ('content' in answer) {
      gate.complete(decision.id, { outcome: 'answered', answeredBy });
      return { action: 'accept', content: answer.content };
    }
    const declined = 'declined' in answer;
    gate.complete(decision.id, { outcome: declined ? 'declined' : 'cancelled', answeredBy });
    return { action: declined ? 'decline' : 'cancel' };
  }

  return { forRun };
}

/** A command's title is the agent's own words; the person is also shown the command line itself when the title leaves it out. */
function promptFor(title: string, commandLine: string | undefined): string {
  return commandLine === undefined || title.includes(commandLine) ? title : `${title} (runs: ${commandLine})`;
}

export type AgentRequests = ReturnType<typeof createAgentRequests>;
export type RunRequests = ReturnType<AgentRequests['forRun']>;
