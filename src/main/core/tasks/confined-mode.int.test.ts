// An agent that sandboxes itself (like Codex), run through the task runner with real git and a real agent process:
// put in its confined mode when the desk's sandbox confines it, left in its own mode when nothing does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentSpec } from '../agents/agent-spec';
import { runOneTurn } from './test-support/run-one-turn';
import { writeRunsFixtureAgent } from './test-support/runs-fixture-agent';

const root = mkdtempSync(join(tmpdir(), 'desk-confined-mode-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const agent: AgentSpec = {
  id: 'self-sandboxing', name: 'Self-sandboxing agent', command: process.execPath, args: [writeRunsFixtureAgent(root), '--mode=modes'],
  dialect: 'acp', envAllowlist: [], env: {}, confinedMode: 'agent-full-access',
};
const logsOf = (events: Awaited<ReturnType<typeof runOneTurn>>['events']) => events.flatMap((event) => (event.type === 'log' ? [event.text] : []));

describe('an agent that sandboxes itself', () => {
  it('works in its confined mode when the desk\'s sandbox confines it, and the activity says so', async () => {
    const run = await runOneTurn({ root, agent, kind: 'bubblewrap' });
    expect(run.fileInCommit('mode.txt')).toBe('agent-full-access\n');
    expect(run.outcome.output).toBe('Working in mode agent-full-access.');
    expect(logsOf(run.events)).toContainEqual(expect.stringContaining('The desk\'s sandbox confines Self-sandboxing agent, so it runs in its mode "agent-full-access"'));
  });

  it('keeps its own mode when nothing confines it', async () => {
    const run = await runOneTurn({ root, agent, kind: 'none' });
    expect(run.fileInCommit('mode.txt')).toBe('agent\n');
    expect(logsOf(run.events).some((line) => line.includes('confines'))).toBe(false);
  });
});
