// A person's "Always allow" as the agent and the activity see it, with the governance gate and the store stood in for:
// the agent is answered "allow once", and an answer the desk cannot keep still lets the request through.
import { describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../../shared/events';
import type { PermissionRequest } from '../agents/agent-session';
import { createMemoryTaskGrants, type TaskGrantsRepo } from '../store/task-grants-repo';
import type { TaskRecord } from '../store/tasks-repo';
import { createAgentRequests, type PermissionGate } from './agent-requests';
import { createOpenQuestions } from './open-questions';

const task = { id: 't', agent: 'claude', attempt: 1 } as TaskRecord;
const request: PermissionRequest = {
  toolCall: { toolCallId: 'c1', title: 'Run npm test', kind: 'execute', rawInput: { command: 'npm test' } },
  options: [{ optionId: 'always', name: 'Always Allow', kind: 'allow_always' }, { optionId: 'once', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }],
};

function requestsWith(grants: Pick<TaskGrantsRepo, 'capabilitiesOf' | 'add'>) {
  const questions = createOpenQuestions();
  const events: TaskEvent[] = [];
  const reviewed: { alwaysAllowed?: readonly string[] }[] = [];
  const gate: PermissionGate = {
    review(input) {
      reviewed.push(input);
      const granted = input.alwaysAllowed?.includes('execute') === true;
      return { id: `r${reviewed.length}`, decision: granted ? 'approved' : 'escalated', rule: granted ? 'always-allowed-in-task' : 'needs-person', reason: '' };
    },
    complete: () => {},
    closeOpen: () => {},
  };
  let opened = () => {};
  const record = (_task: TaskRecord, event: TaskEvent) => {
    events.push(event);
    if (event.type === 'question-opened') opened();
  };
  const run = createAgentRequests({ gate, grants, questions, record, setWaiting: () => {}, now: () => new Date(0) }).forRun(task);
  /** Asks, and answers the question it opens with `optionId`. */
  const ask = async (optionId?: string) => {
    const asked = new Promise<void>((resolve) => { opened = resolve; });
    const outcome = run.permission(request, '/tmp');
    if (optionId !== undefined) {
      await asked;
      questions.answer(task.id, undefined, { optionId });
    }
    return outcome;
  };
  return { ask, events, reviewed };
}

const texts = (events: TaskEvent[]) => events.flatMap((event) => (event.type === 'log' ? [event.text] : []));

describe('an "Always allow" answer to a permission request', () => {
  it('answers the agent with its "allow once" option, and the next request of that kind is approved without a question', async () => {
    const grants = createMemoryTaskGrants();
    const { ask, events, reviewed } = requestsWith(grants);
    await expect(ask('always')).resolves.toEqual({ outcome: 'selected', optionId: 'once' });
    expect(grants.capabilitiesOf('t', 'claude')).toEqual(['execute']);
    await expect(ask()).resolves.toEqual({ outcome: 'selected', optionId: 'once' });
    expect(reviewed[1]?.alwaysAllowed).toEqual(['execute']);
    expect(events.filter((event) => event.type === 'question-opened')).toHaveLength(1);
  });

  it('still lets the request through when the answer cannot be kept, and says later ones are asked again', async () => {
    const grants = { capabilitiesOf: () => [], add: () => { throw new Error('Disk full'); } };
    const { ask, events } = requestsWith(grants);
    await expect(ask('always')).resolves.toEqual({ outcome: 'selected', optionId: 'once' });
    expect(texts(events)).toEqual([expect.stringContaining('could not keep that answer (Disk full): this request is allowed, later ones are asked again.')]);
  });
});
