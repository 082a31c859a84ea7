// Who the agent says it is (initialize's agentInfo) as a client reads it on the task: also for an ad-hoc agent,
// whose desk id says nothing about it, and kept across a restart of the desk.
import { describe, expect, it } from 'vitest';
import { AD_HOC_AGENT_ID } from '../agents/agents-config';
import { desksPerTest, scriptedAgent } from '../test-support/desk-harness';

const openDesk = desksPerTest();
const SCRIPTED = { name: 'scripted-agent', title: 'Scripted agent', version: '0.1.0' };

describe("the agent's own name and version on the task", () => {
  it('is on the task summary once the agent started, in GET / and GET /tasks/<id>', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'named', prompt: 'write a.txt x' });
    await d.waitForStatus('named', 'completed');
    expect((await d.api('GET', '/')).json.tasks.find((t: { id: string }) => t.id === 'named').agentInfo).toEqual(SCRIPTED);
    expect((await d.api('GET', '/tasks/named')).json).toMatchObject({ agent: 'scripted', agentInfo: SCRIPTED });
  });

  it('names an ad-hoc agent by what it said, while its desk id stays ad-hoc', async () => {
    const d = await openDesk({ agents: [{ ...scriptedAgent(), id: AD_HOC_AGENT_ID, name: 'Ad-hoc agent (node)' }] });
    await d.api('POST', '/', { id: 'adhoc', prompt: 'ask Shall I?', agent: AD_HOC_AGENT_ID });
    // Shown while the agent still works, not only once it is done.
    await d.waitForStatus('adhoc', 'awaiting-input');
    expect((await d.api('GET', '/tasks/adhoc')).json).toMatchObject({ agent: AD_HOC_AGENT_ID, agentInfo: SCRIPTED });
  });

  it('is kept when the desk restarts', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'kept', prompt: 'write k.txt x' });
    await d.waitForStatus('kept', 'completed');
    await d.close();
    const again = await openDesk({ reuse: { root: d.root, repo: d.repo, dataDir: d.dataDir } });
    expect((await again.api('GET', '/tasks/kept')).json.agentInfo).toEqual(SCRIPTED);
  });
});
