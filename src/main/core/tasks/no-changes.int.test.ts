// A run whose turn ended well but changed nothing, as a client and the board see it: "no changes" with what failed,
// no empty commit, the AA status still `completed`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SandboxStatus } from '../../../shared/sandbox';
import type { AgentSpec } from '../agents/agent-spec';
import { desksPerTest, policyAllowing, scriptedAgent } from '../test-support/desk-harness';
import { writeRunsFixtureAgent } from './test-support/runs-fixture-agent';

const openDesk = desksPerTest();
// The fixture agent is written to a temp dir, which the sandbox does not show; these tests are not about the sandbox.
const NO_SANDBOX: SandboxStatus = { kind: 'none', available: false, reason: 'taken away for this test' };
const scriptDir = mkdtempSync(join(tmpdir(), 'desk-runs-agent-'));
const script = writeRunsFixtureAgent(scriptDir);
afterAll(() => rmSync(scriptDir, { recursive: true, force: true }));

const doesNothing: AgentSpec = { id: 'nothing', name: 'Idle agent', command: process.execPath, args: [script, '--mode=nothing'], dialect: 'acp', envAllowlist: [], env: {} };
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' }).trim();

describe('a turn that ends without changing a file', () => {
  it('shows "no changes" with the tool call and the command that failed, and makes no commit', async () => {
    const d = await openDesk({ sandbox: NO_SANDBOX, agents: [scriptedAgent(), doesNothing], policy: policyAllowing('execute') });
    await d.api('POST', '/', { id: 'idle', prompt: 'run the tests', agent: 'nothing' });
    expect(await d.waitForStatus('idle', ['error', 'completed'])).toBe('completed');

    const task = (await d.api('GET', '/tasks/idle')).json;
    expect(task.commit).toBeUndefined();
    expect(task.noChanges.failed).toEqual([
      { title: 'Run npm test', detail: 'bwrap: execvp codex-linux-sandbox: No such file or directory' },
      { title: 'sh -c echo no such target >&2; exit 3', detail: 'exit code 3' },
    ]);
    expect(task.noChanges.summary).toBe('Idle agent ended its turn without changing any file, so nothing was committed. 2 steps failed: Run npm test (bwrap: execvp codex-linux-sandbox: No such file or directory); sh -c echo no such target >&2; exit 3 (exit code 3).');
    expect(task.turns).toEqual([expect.objectContaining({ turn: 1, status: 'completed' })]);
    expect(task.turns[0].commit).toBeUndefined();
    // The task's branch is where it started: no empty commit on it.
    expect(git(d.repo, 'rev-parse', task.branch)).toBe(task.baseCommit);
  });

  it('says so in the AA list and the board\'s list too', async () => {
    const d = await openDesk({ sandbox: NO_SANDBOX, agents: [scriptedAgent(), doesNothing], policy: policyAllowing('execute') });
    await d.api('POST', '/', { id: 'idle', prompt: 'run the tests', agent: 'nothing' });
    await d.waitForStatus('idle', ['error', 'completed']);
    const listed = (await d.api('GET', '/')).json.tasks.find((task: { id: string }) => task.id === 'idle');
    expect(listed).toMatchObject({ status: 'completed', noChanges: { summary: expect.stringContaining('without changing any file') } });
    const board = (await d.api('GET', '/api/tasks')).json.tasks.find((task: { id: string }) => task.id === 'idle');
    expect(board.noChanges.failed).toHaveLength(2);
  });

  it('is not said of a turn that changed a file, which is committed as before', async () => {
    const d = await openDesk({ sandbox: NO_SANDBOX });
    await d.api('POST', '/', { id: 'works', prompt: 'write done.txt done' });
    expect(await d.waitForStatus('works', ['error', 'completed'])).toBe('completed');
    const task = (await d.api('GET', '/tasks/works')).json;
    expect(task.noChanges).toBeUndefined();
    expect(git(d.repo, 'show', `${task.commit}:done.txt`)).toBe('done');
  });

  it('keeps the earlier turn\'s commit as the task\'s when a follow-up changes nothing', async () => {
    const d = await openDesk({ sandbox: NO_SANDBOX });
    await d.api('POST', '/', { id: 'twice', prompt: 'write notes.txt one' });
    expect(await d.waitForStatus('twice', ['error', 'completed'])).toBe('completed');
    const first = (await d.api('GET', '/tasks/twice')).json;
    expect(first.noChanges).toBeUndefined();

    // Accepted, the follow-up is queued at once: the status waited for next is its own.
    expect((await d.api('POST', '/tasks/twice/prompt', { prompt: 'say nothing more to do' })).status).toBe(202);
    expect(await d.waitForStatus('twice', ['error', 'completed'])).toBe('completed');
    const second = (await d.api('GET', '/tasks/twice')).json;
    expect(second.commit).toBe(first.commit);
    expect(second.noChanges.summary).toContain('without changing any file');
    expect(second.turns.map((turn: { commit?: string }) => turn.commit)).toEqual([first.commit, undefined]);
  });
});
