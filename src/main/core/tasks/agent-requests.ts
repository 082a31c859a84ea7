// What happens when an agent asks for permission or asks a question: governance decides, and what it
// escalates waits for a person as an open question on the task.
import type { TaskEvent } from '../../../shared/events';
import type { QuestionAnswer } from '../../../shared/questions';
import type { ElicitationRequest, ElicitationResponse, PermissionOutcome, PermissionRequest } from '../agents/agent-session';
import { INVALID_PARAMS, JsonRpcError } from '../agents/json-rpc-peer';
import type { TaskRecord } from '../store/tasks-repo';
import type { OpenQuestions } from './open-questions';
import { outcomeFor, permissionFacts } from './permission-facts';

/** The governance policy as the task service needs it. */
export interface PermissionGate {
  /** `VALIDATE` only asks what the policy says, without keeping a request open. */
  review(input: { agentId: string; taskId: string; kind: string; title: string; paths: string[]; command?: string; worktree: string; requestType?: 'APPROVAL' | 'VALIDATE' }):
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
  record(task: TaskRecord, event: TaskEvent): void;
  /** Called when the task starts or stops waiting for a person. */
  setWaiting(task: TaskRecord, waiting: boolean): void;
  now(): Date;
}

/** The answers offered to a person for an agent's file access that the policy says to ask about. */
const FILE_OPTIONS = [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' }];

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

  return {
    async permission(task: TaskRecord, request: PermissionRequest, worktree: string): Promise<PermissionOutcome> {
      const facts = permissionFacts(request);
      const decision = await gate.review({ agentId: task.agent, taskId: task.id, worktree, ...facts });
      recordDecision(task, decision);
      if (decision.decision !== 'escalated') {
        const outcome = outcomeFor(request.options, decision.decision === 'approved' ? 'allow' : 'reject');
        gate.complete(decision.id, { outcome: outcome.outcome === 'cancelled' ? 'cancelled' : decision.decision === 'approved' ? 'allowed' : 'rejected' });
        return outcome;
      }
      const { answer, answeredBy } = await askPerson(task, {
        taskId: task.id, kind: 'permission', prompt: facts.title, options: request.options, toolCall: request.toolCall, governanceRequestId: decision.id,
      });
      if ('optionId' in answer) {
        const chosen = request.options.find((o) => o.optionId === answer.optionId);
        gate.complete(decision.id, { outcome: chosen?.kind.startsWith('allow') ? 'allowed' : 'rejected', answeredBy });
        return { outcome: 'selected', optionId: answer.optionId };
      }
      gate.complete(decision.id, { outcome: 'cancelled', answeredBy });
      return { outcome: 'cancelled' };
    },

    /**
     * An agent's file read or write (ACP fs/*) passes the same policy: outside the worktree or the
     * allowed paths it is refused, and a capability set to "ask" puts the question to a person.
     */
    async fileAccess(task: TaskRecord, access: { kind: 'read' | 'edit'; path: string }, worktree: string): Promise<void> {
      const title = `${access.kind === 'read' ? 'Read' : 'Write'} ${access.path}`;
      const decision = await gate.review({ agentId: task.agent, taskId: task.id, worktree, kind: access.kind, title, paths: [access.path] });
      recordDecision(task, decision);
      let allowed = decision.decision === 'approved';
      let answeredBy: string | undefined;
      if (decision.decision === 'escalated') {
        const asked = await askPerson(task, {
          taskId: task.id, kind: 'permission', prompt: title, options: FILE_OPTIONS, governanceRequestId: decision.id,
          toolCall: { kind: access.kind, title, locations: [{ path: access.path }] },
        });
        allowed = 'optionId' in asked.answer && asked.answer.optionId === 'allow';
        answeredBy = asked.answeredBy;
      }
      gate.complete(decision.id, { outcome: allowed ? 'allowed' : 'rejected', ...(answeredBy !== undefined && { answeredBy }) });
      if (!allowed) throw new JsonRpcError(INVALID_PARAMS, `Access denied: ${decision.decision === 'escalated' ? 'a person refused it' : decision.reason}`);
    },

    /**
     * A terminal command (ACP terminal/create) is checked against denied patterns and a denied execute
     * capability. It is not put to a person: agents ask permission for a command before running it.
     */
    async terminalCommand(task: TaskRecord, command: string, worktree: string): Promise<void> {
      const decision = await gate.review({ agentId: task.agent, taskId: task.id, worktree, kind: 'execute', title: `Run ${command}`, paths: [], command, requestType: 'VALIDATE' });
      if (decision.decision !== 'rejected') return;
      recordDecision(task, decision);
      throw new JsonRpcError(INVALID_PARAMS, `Command refused: ${decision.reason}`);
    },

    async elicitation(task: TaskRecord, request: ElicitationRequest, worktree: string): Promise<ElicitationResponse> {
      const decision = await gate.review({ agentId: task.agent, taskId: task.id, worktree, kind: 'elicitation', title: request.message, paths: [] });
      recordDecision(task, decision);
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
    },
  };
}

export type AgentRequests = ReturnType<typeof createAgentRequests>;
