// Recovery after a crash: agents a dead desk left behind are ended, but only if the recorded pid still runs that agent.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AgentSpec } from '../agents/agent-spec';
import { commandLineOf, processGroupAlive, processExists, signalProcessTree } from '../agents/process-tree';
import { isolateGitConfig } from '../git/git-test-fixture';
import { openDatabase } from '../store/database';
import { createTasksRepo } from '../store/tasks-repo';
import { makeRepo, scriptedAgent, startDesk } from '../test-support/desk-harness';

let restoreGit: () => void;
beforeAll(() => { restoreGit = isolateGitConfig(); });
afterAll(() => restoreGit());

// An agent that ignores SIGTERM and stdin closing: only a SIGKILL of its tree ends it.
const stubborn: AgentSpec = { id: 'stubborn', name: 'Stubborn', command: 'sh', args: ['-c', 'trap "" TERM HUP; while :; do sleep 1; done'], dialect: 'acp', envAllowlist: [], env: {} };

it('ends the tree of an agent left running by a crashed desk and re-queues its task, leaving unrelated processes alone', async () => {
  const root = mkdtempSync(join(tmpdir(), 'desk-recovery-'));
  const repo = makeRepo(root);
  const dataDir = join(root, 'data');
  const orphan = spawn(stubborn.command, stubborn.args, { detached: true, stdio: 'ignore' });
  const bystander = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
  try {
    // Until exec completes, a just-spawned child still shows its parent's command line; 'spawn' comes after
    // the exec succeeded (a failed one is an 'error' instead).
    await Promise.all([once(orphan, 'spawn'), once(bystander, 'spawn')]);
    expect(commandLineOf(orphan.pid as number)?.[0]).toBe('sh');
    expect(commandLineOf(bystander.pid as number)?.[0]).toBe('sleep');
    const db = openDatabase(join(dataDir, 'desk.sqlite'));
    const tasks = createTasksRepo(db, realpathSync(repo));
    const at = new Date().toISOString();
    const running = { prompt: 'p', review: 'pending' as const, submittedAt: at, updatedAt: at, baseBranch: 'main', attempt: 1, status: 'in-progress' as const, dependencies: ['never-submitted'] };
    tasks.putSubmission({ ...running, id: 'left-behind', agent: 'stubborn', agentPid: orphan.pid as number });
    tasks.putSubmission({ ...running, id: 'recycled-pid', agent: 'stubborn', agentPid: bystander.pid as number });
    db.close();

    const desk = await startDesk({ reuse: { root, repo, dataDir }, agents: [scriptedAgent(), stubborn] });
    try {
      expect(processGroupAlive(orphan.pid as number)).toBe(false);
      expect(processExists(bystander.pid as number)).toBe(true);
      const detail = (await desk.api('GET', '/tasks/left-behind')).json;
      expect(detail).toMatchObject({ status: 'queued', attempt: 1 });
      expect(detail.agentPid).toBeUndefined();
      const events = (await desk.api('GET', '/api/tasks/left-behind/events')).json.events;
      expect(events.some((e: { event: { text?: string } }) => /will run again/.test(e.event.text ?? ''))).toBe(true);
    } finally {
      await desk.close();
    }
  } finally {
    for (const child of [orphan, bystander]) signalProcessTree(child.pid as number, 'SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
});
