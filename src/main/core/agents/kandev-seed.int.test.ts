// The seed's Kandev example agent (its bash script, verbatim) in a desk with this machine's sandbox: its quirks —
// an answer written before it is asked, updates without a session id, a `complete` update, exit on cancel.
import { describe, expect, it } from 'vitest';
import { desksPerTest, scriptedAgent, taskEvents, waitForEvent } from '../test-support/desk-harness';
import type { AgentSpec } from './agent-spec';
import { processGroupAlive } from './process-tree';
import { KANDEV_SEED_AGENT, seedAgentSkip } from './test-support/kandev-seed-agent';

const openDesk = desksPerTest();
const seedAgent: AgentSpec = { id: 'seed', name: 'Kandev example agent', command: 'bash', args: [KANDEV_SEED_AGENT, '--acp'], dialect: 'kandev', envAllowlist: [], env: {} };
const skip = seedAgentSkip();

describe.skipIf(skip)(`the seed's Kandev example agent in the desk${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('says what it processes, and its turn ends with its complete update', async () => {
    const d = await openDesk({ agents: [scriptedAgent(), seedAgent] });
    await d.api('POST', '/', { id: 'k', prompt: 'Tidy the README', agent: 'seed' });
    expect(await d.waitForStatus('k', ['error', 'completed'])).toBe('completed');
    const events = await taskEvents(d, 'k');
    expect(events).toContainEqual(expect.objectContaining({ type: 'agent', update: { kind: 'message', role: 'agent', text: 'Processing: Tidy the README' } }));
  });

  it('is cancelled in the middle of its turn, leaving no process behind', async () => {
    const d = await openDesk({ agents: [scriptedAgent(), seedAgent] });
    await d.api('POST', '/', { id: 'stop', prompt: 'Work for a while', agent: 'seed' });
    await waitForEvent(d, 'stop', ({ event }) => event.type === 'agent' && event.update.kind === 'message');
    const { agentPid } = (await d.api('GET', '/tasks/stop')).json;
    expect((await d.api('DELETE', '/stop')).json).toMatchObject({ status: 'cancelled' });
    expect(await d.waitForStatus('stop', ['cancelled', 'error', 'completed'])).toBe('cancelled');
    expect(processGroupAlive(agentPid)).toBe(false);
  });
});
