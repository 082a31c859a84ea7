// An agent that sandboxes itself (like Codex), run through the task runner with real git and a real agent process:
// put in its confined mode when the desk's sandbox confines it, left in its own mode when nothing does. This machine
// may have no bubblewrap, so "confined" is an isolation that says so and starts the agent as it is.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../../shared/events';
import type { SandboxKind } from '../../../shared/sandbox';
import type { AgentSpec } from '../agents/agent-spec';
import { createGitService } from '../git/git-service';
import type { TaskRecord } from '../store/tasks-repo';
import { makeRepo } from '../test-support/desk-harness';
import { runTask, type RunContext } from './task-runner';
import { writeRunsFixtureAgent } from './test-support/runs-fixture-agent';

const root = mkdtempSync(join(tmpdir(), 'desk-confined-mode-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const script = writeRunsFixtureAgent(root);
const agent: AgentSpec = {
  id: 'self-sandboxing', name: 'Self-sandboxing agent', command: process.execPath, args: [script, '--mode=modes'],
  dialect: 'acp', envAllowlist: [], env: {}, confinedMode: 'agent-full-access',
};

async function runConfinedBy(kind: SandboxKind, taskId: string) {
  const repo = makeRepo(mkdtempSync(join(root, 'repo-')));
  const data = mkdtempSync(join(root, 'data-'));
  const git = createGitService({ repoRoot: repo, worktreesDir: join(data, 'worktrees'), hooksDir: join(data, 'hooks'), stateDir: join(data, 'state'), deskId: 'test' });
  const events: TaskEvent[] = [];
  const task = { id: taskId, prompt: 'work', dependencies: [], agent: agent.id, baseBranch: await git.currentBranch(), attempt: 1, status: 'in-progress' } as unknown as TaskRecord;
  const refused = () => Promise.reject(new Error('not in this test'));
  const context: RunContext = {
    task, turn: { number: 1, prompt: 'work' }, signal: new AbortController().signal, git,
    branchOf: (id) => git.branchFor(id), agents: { get: () => agent } as unknown as RunContext['agents'], clientVersion: 'test',
    update: () => {}, record: (event) => { events.push(event); }, onSession: () => {},
    decidePermission: refused, elicit: refused, authorizeCommand: refused, authorizeFile: refused,
    workspace: { setUp: () => Promise.resolve({}) }, cleanUpPrevious: () => Promise.resolve(),
    isolate: () => Promise.resolve({
      kind, description: kind === 'none' ? 'No sandbox' : `Confined by ${kind}`, env: {},
      wrap: (command, args) => ({ command, args: [...args] }), dispose: () => Promise.resolve(),
    }),
  };
  const outcome = await runTask(context);
  if (outcome.status !== 'completed') throw new Error(`the run ended ${outcome.status}: ${'message' in outcome ? outcome.message : ''}`);
  const modeFile = execFileSync('git', ['-C', repo, 'show', `${outcome.commit}:mode.txt`], { encoding: 'utf8' });
  const logs = events.flatMap((event) => (event.type === 'log' ? [event.text] : []));
  return { modeFile, logs, output: outcome.output };
}

describe('an agent that sandboxes itself', () => {
  it('works in its confined mode when the desk\'s sandbox confines it, and the activity says so', async () => {
    const run = await runConfinedBy('bubblewrap', 'confined');
    expect(run.modeFile).toBe('agent-full-access\n');
    expect(run.output).toBe('Working in mode agent-full-access.');
    expect(run.logs).toContainEqual(expect.stringContaining('The desk\'s sandbox confines Self-sandboxing agent, so it runs in its mode "agent-full-access"'));
  });

  it('keeps its own mode when nothing confines it', async () => {
    const run = await runConfinedBy('none', 'unconfined');
    expect(run.modeFile).toBe('agent\n');
    expect(run.logs.some((line) => line.includes('confines'))).toBe(false);
  });
});
