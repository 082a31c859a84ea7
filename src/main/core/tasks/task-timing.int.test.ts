// What the task summary says about time and the agent's last activity: real SQLite, git and scripted agent.
import { describe, expect, it } from 'vitest';
import { desksPerTest, startDesk, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();
const summaryOf = async (desk: Desk, id: string) => (await desk.api('GET', '/')).json.tasks.find((task: { id: string }) => task.id === id);

describe('a task summary', () => {
  it('counts the time the agent worked, not the time the task then sat in review', async () => {
    const desk = await openDesk();
    await desk.api('POST', '/', { id: 'quick', prompt: 'sleep 1000\nsay done with the badge' });
    await desk.waitForStatus('quick', 'completed');
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const task = await summaryOf(desk, 'quick');
    expect(task.workingMs).toBeGreaterThanOrEqual(1000);
    // The run (worktree, agent, commit) and nothing of the 1.5 s in review since.
    expect(task.workingMs).toBeLessThanOrEqual(Date.parse(task.finishedAt) - Date.parse(task.startedAt));
    expect(task.workingSince).toBeUndefined();
    expect(task.lastActivity).toEqual({ kind: 'message', text: 'done with the badge' });
  });

  it('leaves out the time the agent waited for a person', async () => {
    const desk = await openDesk();
    await desk.api('POST', '/', { id: 'asking', prompt: 'question Which colour?\nsay thanks' });
    await desk.waitForStatus('asking', 'awaiting-input');
    const waiting = await summaryOf(desk, 'asking');
    expect(waiting.workingSince).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await desk.api('POST', '/tasks/asking/input', { content: { answer: 'blue' } })).status).toBeLessThan(300);
    await desk.waitForStatus('asking', 'completed');

    const task = await summaryOf(desk, 'asking');
    expect(task.workingMs).toBeGreaterThan(0);
    expect(task.workingMs).toBeLessThanOrEqual(Date.parse(task.finishedAt) - Date.parse(task.startedAt) - 2000);
  });

  it('shows its working time and last activity again after the desk restarts', async () => {
    const first = await openDesk();
    await first.api('POST', '/', { id: 'kept', prompt: 'sleep 300\nsay the last words' });
    await first.waitForStatus('kept', 'completed');
    const before = await summaryOf(first, 'kept');
    await first.close();

    const again = await startDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir } });
    try {
      const after = await summaryOf(again, 'kept');
      expect(after.workingMs).toBe(before.workingMs);
      expect(after.workingMs).toBeGreaterThanOrEqual(300);
      expect(after).toMatchObject({ startedAt: before.startedAt, finishedAt: before.finishedAt, lastActivity: { kind: 'message', text: 'the last words' } });
    } finally {
      await again.close();
    }
  });

  it('follows the agent as it works, so a reload mid-run shows what it is doing', async () => {
    const desk = await openDesk();
    await desk.api('POST', '/', { id: 'busy', prompt: 'say reading the docs\nsleep 5000' });
    await desk.waitForStatus('busy', 'in-progress');
    await expect.poll(async () => (await summaryOf(desk, 'busy')).lastActivity, { timeout: 10_000 }).toEqual({ kind: 'message', text: 'reading the docs' });
    const working = await summaryOf(desk, 'busy');
    expect(working.workingSince).toEqual(expect.any(String));
    await desk.api('DELETE', '/busy');
  });
});
