// The real flow: the scripted agent, confined by bubblewrap with its network off, calls the desk's MCP server with
// the server entry and token it got in session/new, and the board shows what it proposed.
import { describe, expect, it } from 'vitest';
import { sandboxForTests } from '../sandbox/test-support/sandbox-for-tests';
import { desksPerTest, taskEvents } from '../test-support/desk-harness';

const { skip } = await sandboxForTests();
const openDesk = desksPerTest();

/** What the agent said in its messages, joined. */
async function said(desk: Awaited<ReturnType<typeof openDesk>>, id: string): Promise<string> {
  return (await taskEvents(desk, id))
    .map((event) => (event.type === 'agent' && event.update.kind === 'message' ? event.update.text : ''))
    .join('');
}

describe.skipIf(skip)(`the scripted agent and the desk's MCP server${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('proposes a task from inside the sandbox; the task waits until a person accepts it, then runs', async () => {
    const desk = await openDesk({ concurrency: 2 });
    await desk.api('POST', '/', { id: 'planner', prompt: [
      'mcp propose follow-up say following up', 'mcp link follow-up planner',
      'mcp propose later say later', 'mcp link later follow-up', 'mcp link follow-up later', 'mcp list',
    ].join('\n') });
    await desk.waitForStatus('planner', 'completed');

    const detail = (await desk.api('GET', '/tasks/planner')).json;
    expect(detail.unsandboxed).toBeUndefined();
    const text = await said(desk, 'planner');
    expect(text).toContain('MCP propose_task: {');
    expect(text).toContain('MCP link_dependency: {');
    expect(text).toContain('MCP link_dependency refused: {"error":"conflict","code":"dependency_cycle","message":"These dependencies would close a cycle: follow-up → later → follow-up"');
    expect(text).toContain('"id":"follow-up"');

    expect((await desk.api('GET', '/tasks/follow-up')).json).toMatchObject({ status: 'queued', proposal: 'pending', proposedBy: 'planner', dependencies: ['planner'] });
    expect((await desk.api('POST', '/tasks/follow-up/accept-proposal')).status).toBe(200);
    await desk.waitForStatus('follow-up', 'completed');
    expect(await said(desk, 'follow-up')).toContain('following up');
    expect((await desk.api('POST', '/tasks/later/dismiss-proposal')).json).toMatchObject({ status: 'cancelled', proposal: 'dismissed' });
  });
});
