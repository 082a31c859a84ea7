// Tasks run end to end: real git repo, real SQLite, the real scripted agent process, the real HTTP endpoint.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processGroupAlive } from '../agents/process-tree';
import { git } from '../git/git-test-fixture';
import { desksPerTest, policyAllowing, waitForEvent, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();
let desk: (Desk & { root: string }) | undefined;

const submit = async (body: { id: string; prompt: string; dependencies?: string[] }) => {
  const response = await (desk as Desk).api('POST', '/', body);
  expect(response.status, response.text).toBe(202);
  return response.json;
};
const detail = async (id: string) => (await (desk as Desk).api('GET', `/tasks/${encodeURIComponent(id)}`)).json;

describe('a finished task', () => {
  it('is committed on its own branch with the prompt in the message, leaving the user\'s checkout alone', async () => {
    desk = await openDesk();
    const headBefore = git(desk.repo, 'rev-parse', 'HEAD');
    const prompt = 'Write the notes file\nwrite notes/todo.txt buy milk\n# not a heading, a line of the prompt';
    await submit({ id: 'notes', prompt });
    await desk.waitForStatus('notes', 'completed');

    const task = await detail('notes');
    expect(task.commit).toMatch(/^[0-9a-f]{40}$/);
    expect((await desk.api('GET', '/')).json.tasks[0]).toMatchObject({ id: 'notes', status: 'completed', commit: task.commit });
    expect(git(desk.repo, 'log', '-1', '--format=%B', task.commit).trimEnd()).toBe(`Write the notes file\n\n${prompt}\n\nTask-Id: notes`);
    expect(git(desk.repo, 'show', `${task.commit}:notes/todo.txt`)).toBe('buy milk');
    expect(git(desk.repo, 'rev-parse', `${task.branch}`)).toBe(task.commit);
    expect(git(desk.repo, 'rev-parse', 'HEAD')).toBe(headBefore);
    expect(git(desk.repo, 'status', '--porcelain')).toBe('');
  });

  it('gets no empty commit when the agent changed nothing, and says "no changes"', async () => {
    desk = await openDesk();
    await submit({ id: 'quiet', prompt: 'say nothing to change' });
    await desk.waitForStatus('quiet', 'completed');
    const task = await detail('quiet');
    expect(task.commit).toBeUndefined();
    expect(task.noChanges).toEqual({ summary: 'Scripted agent ended its turn without changing any file, so nothing was committed.', failed: [] });
    expect(git(desk.repo, 'rev-parse', task.branch)).toBe(git(desk.repo, 'rev-parse', 'main'));
  });
});

describe('dependencies', () => {
  it('start a task only after its dependency completed, from a tree that holds the dependency\'s commit', async () => {
    desk = await openDesk();
    // Submitted first, it waits for a task nobody submitted yet.
    await submit({ id: 'second', prompt: 'Use the first file\nread first.txt\nwrite second.txt built on first', dependencies: ['first'] });
    expect((await detail('second')).unmetDependencies).toEqual([{ id: 'first', status: 'unknown', blocking: false }]);
    await submit({ id: 'first', prompt: 'Make the first file\nwrite first.txt one' });
    await desk.waitForStatus('second', 'completed');

    const first = await detail('first');
    const second = await detail('second');
    expect(new Date(second.startedAt).getTime()).toBeGreaterThanOrEqual(new Date(first.finishedAt).getTime());
    git(desk.repo, 'merge-base', '--is-ancestor', first.commit, second.commit); // throws unless ancestor
    expect(git(desk.repo, 'show', `${second.commit}:first.txt`)).toBe('one');
    expect(git(desk.repo, 'show', `${second.commit}:second.txt`)).toBe('built on first');
    const events = (await desk.api('GET', '/api/tasks/second/events')).json.events;
    const read = events.find((e: { event: { type: string; update?: { kind: string; toolKind?: string } } }) => e.event.type === 'agent' && e.event.update?.toolKind === 'read');
    expect(read).toBeDefined();
  });

  it('keep a dependent queued, with the reason, when the dependency failed', async () => {
    desk = await openDesk();
    await submit({ id: 'broken', prompt: 'fail The build is red' });
    await submit({ id: 'after-broken', prompt: 'say never runs', dependencies: ['broken'] });
    await desk.waitForStatus('broken', 'error');
    const waiting = await detail('after-broken');
    expect(waiting.status).toBe('queued');
    expect(waiting.unmetDependencies).toEqual([{ id: 'broken', status: 'error', blocking: true }]);
    expect(waiting.blockedBy).toMatch(/broken \(failed\)/);
  });

  it('end a task in error naming the files when its dependencies conflict', async () => {
    desk = await openDesk();
    await submit({ id: 'left', prompt: 'write shared.txt left' });
    await submit({ id: 'right', prompt: 'write shared.txt right' });
    await submit({ id: 'both', prompt: 'say merge them', dependencies: ['left', 'right'] });
    await desk.waitForStatus('both', 'error');
    expect((await detail('both')).errorMessage).toMatch(/shared\.txt/);
  });
});

describe('replacing and cancelling', () => {
  it('a second submission with the same id cancels the sleeping run and queues the new prompt', async () => {
    desk = await openDesk();
    await submit({ id: 'same', prompt: 'sleep 60000' });
    await desk.waitForStatus('same', 'in-progress');
    const firstRun = await waitForAgentPid('same');

    const started = Date.now();
    await submit({ id: 'same', prompt: 'Second thoughts\nwrite replaced.txt new run' });
    expect(Date.now() - started).toBeLessThan(3500);
    expect(processGroupAlive(firstRun)).toBe(false);
    const listed = (await desk.api('GET', '/')).json.tasks.filter((t: { id: string }) => t.id === 'same');
    expect(listed).toHaveLength(1);

    await desk.waitForStatus('same', 'completed');
    const task = await detail('same');
    expect(task.prompt).toContain('Second thoughts');
    expect(git(desk.repo, 'show', `${task.commit}:replaced.txt`)).toBe('new run');
  });

  it('a cancel ends the agent and the processes it started within 3 s', async () => {
    // The command must be running for the cancel to have it to end, so no person is asked first.
    desk = await openDesk({ policy: policyAllowing('execute') });
    await submit({ id: 'long', prompt: 'run sleep 120' });
    const pid = await waitForAgentPid('long');
    await waitForEvent(desk, 'long', (e) => e.event.type === 'agent' && e.event.update.kind === 'tool-call');

    const started = Date.now();
    const response = await desk.api('DELETE', '/long');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(response.json).toMatchObject({ id: 'long', status: 'cancelled' });
    expect(processGroupAlive(pid)).toBe(false);
  });
});

describe('failures', () => {
  it('an agent crash ends the task in error with what happened', async () => {
    desk = await openDesk();
    await submit({ id: 'crashy', prompt: 'say about to go\ncrash 3' });
    await desk.waitForStatus('crashy', 'error');
    expect((await detail('crashy')).errorMessage).toMatch(/exited with code 3/);
  });

  it('a failed prompt ends the task in error with the agent\'s message', async () => {
    desk = await openDesk();
    await submit({ id: 'failing', prompt: 'fail Cannot reach the model' });
    await desk.waitForStatus('failing', 'error');
    expect((await detail('failing')).errorMessage).toContain('Cannot reach the model');
  });
});

describe('the scheduler', () => {
  it('runs at most `concurrency` agents at once, first in first out', async () => {
    desk = await openDesk({ concurrency: 1 });
    await submit({ id: 'one', prompt: 'sleep 400' });
    await submit({ id: 'two', prompt: 'say second' });
    await desk.waitForStatus('one', 'in-progress');
    expect((await detail('two')).status).toBe('queued');
    await desk.waitForStatus('two', 'completed');
    expect(new Date((await detail('two')).startedAt).getTime()).toBeGreaterThanOrEqual(new Date((await detail('one')).finishedAt).getTime());
  });
});

describe('the agent\'s file access', () => {
  it('writes through the desk inside the worktree and is refused outside it', async () => {
    desk = await openDesk();
    const outside = join(desk.root, 'outside.txt');
    await submit({ id: 'fs', prompt: `write inside.txt ok\nwrite ${outside} escaped` });
    await desk.waitForStatus('fs', 'completed');
    const task = await detail('fs');
    expect(git(desk.repo, 'show', `${task.commit}:inside.txt`)).toBe('ok');
    expect(() => readFileSync(outside)).toThrow();
  });
});

async function waitForAgentPid(id: string): Promise<number> {
  const { event } = await waitForEvent(desk as Desk, id, (e) => e.event.type === 'log' && /\(pid \d+\)/.test(e.event.text));
  return Number(/\(pid (\d+)\)/.exec(event.type === 'log' ? event.text : '')?.[1]);
}
