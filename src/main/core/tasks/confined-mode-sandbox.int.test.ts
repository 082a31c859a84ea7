// The confined mode under the desk's real sandbox (bubblewrap, where this machine has it): the agent runs confined,
// is put in its confined mode, and the file it writes in that mode is in the task's commit.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentSpec } from '../agents/agent-spec';
import { sandboxForTests } from '../sandbox/test-support/sandbox-for-tests';
import { desksPerTest, scriptedAgent, taskEvents } from '../test-support/desk-harness';
import { writeRunsFixtureAgent } from './test-support/runs-fixture-agent';

const { skip } = await sandboxForTests();
const openDesk = desksPerTest();
const scriptDir = mkdtempSync(join(tmpdir(), 'desk-runs-agent-'));
afterAll(() => rmSync(scriptDir, { recursive: true, force: true }));
// The agent's script sits in its state dir, which the sandbox shows it (a temp dir elsewhere would be hidden).
const agent: AgentSpec = {
  id: 'self-sandboxing', name: 'Self-sandboxing agent', command: process.execPath, args: [writeRunsFixtureAgent(scriptDir), '--mode=modes'],
  dialect: 'acp', envAllowlist: [], env: {}, confinedMode: 'agent-full-access', stateDirs: [scriptDir],
};

describe.skipIf(skip)(`an agent that sandboxes itself, in the desk's own sandbox${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('runs confined, in its confined mode, and the activity says both', async () => {
    const d = await openDesk({ agents: [scriptedAgent(), agent] });
    await d.api('POST', '/', { id: 'confined', prompt: 'work', agent: agent.id });
    expect(await d.waitForStatus('confined', ['error', 'completed'])).toBe('completed');
    const task = (await d.api('GET', '/tasks/confined')).json;
    expect(execFileSync('git', ['-C', d.repo, 'show', `${task.commit}:mode.txt`], { encoding: 'utf8' })).toBe('agent-full-access\n');
    const logs = (await taskEvents(d, 'confined')).flatMap((event) => (event.type === 'log' ? [event.text] : []));
    expect(logs).toContainEqual(expect.stringMatching(/^Sandboxed \(/));
    expect(logs).toContainEqual(expect.stringContaining('so it runs in its mode "agent-full-access"'));
  });
});
