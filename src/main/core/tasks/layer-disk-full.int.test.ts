// A layered task (issue 41) whose layer's file system fills up ends as a task in a full checkout does: in error,
// saying "Disk full", its worktree and the file system to free, and nothing cut short committed. The layers' folder
// of the data dir is a real 8 MiB tmpfs; the rest of the data dir and the repository have room. Needs root (mount).
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../../shared/events';
import { git, isolateGitConfig } from '../git/git-test-fixture';
import { sandboxForTests } from '../sandbox/test-support/sandbox-for-tests';
import { makeRepo, policyAllowing, startDesk, taskEvents, waitForEvent, type Desk } from '../test-support/desk-harness';
import { fillUp, mountSmallFileSystem, unmountSmallFileSystem } from '../test-support/small-file-system';

const { skip: noSandbox } = await sandboxForTests();
const root = mkdtempSync(join(tmpdir(), 'desk-layer-full-'));
const dataDir = join(root, 'data');
const layersDir = join(dataDir, 'task-layers');
const small = noSandbox ? { skip: noSandbox } : mountSmallFileSystem(8, layersDir);
if (small.skip) rmSync(root, { recursive: true, force: true });
/** The upper dir of the layer shown at worktree `target`, where its task's writes land. */
const upperOf = (target: string) => join(layersDir, createHash('sha256').update(target).digest('hex').slice(0, 16), 'upper');

describe.skipIf(small.skip)(`a layered task whose layer fills its file system${small.skip ? ` (skipped: ${small.skip})` : ''}`, () => {
  let desk: Desk;
  let restoreGit: () => void = () => {};

  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    const repo = makeRepo(root);
    desk = await startDesk({ reuse: { root, repo, dataDir }, layers: 'always', policy: policyAllowing('execute', 'edit') });
  });
  afterAll(async () => {
    await desk?.close();
    unmountSmallFileSystem(layersDir);
    rmSync(root, { recursive: true, force: true });
    restoreGit();
  });

  it('ends in error saying "Disk full", naming its worktree and the file system of its layer', async () => {
    await desk.api('POST', '/', { id: 'filler', prompt: 'run dd if=/dev/zero of=fill.bin bs=1M count=64\nwrite after.txt written after the disk filled' });
    expect(await desk.waitForStatus('filler', ['error', 'completed'], 60_000)).toBe('error');
    const task = (await desk.api('GET', '/tasks/filler')).json as { errorMessage: string; worktreePath: string; branch: string };
    // The same words as for a full checkout: its commit was refused, the disk being full where the agent wrote.
    expect(task.errorMessage).toMatch(/^Disk full: the agent's work in the task's worktree could not be written/);
    expect(task.errorMessage).toContain(task.worktreePath);
    expect(task.errorMessage).toContain(`file system mounted at ${layersDir}`);
    const activity = await taskEvents(desk, 'filler');
    expect(activity.some((e: TaskEvent) => e.type === 'log' && e.level === 'error' && e.text.startsWith('Disk full: '))).toBe(true);
    // Nothing cut short was committed: the task's branch is still at the base.
    expect(git(desk.repo, 'rev-parse', task.branch)).toBe(git(desk.repo, 'rev-parse', 'main'));

    // Room again: the file goes the way a person removes it, through the worktree as its task sees it (removed from
    // the upper dir behind the mounted overlay's back, it would keep its space while the overlay holds it).
    const view = await desk.core.worktreeView('filler');
    rmSync(join(view as string, 'fill.bin'));
    expect(existsSync(join(upperOf(task.worktreePath), 'fill.bin'))).toBe(false);
  }, 120_000);

  it('ends a task whose change to a file of the snapshot meets the full file system as the file is copied up', async () => {
    await desk.api('POST', '/', { id: 'editor', prompt: 'sleep 2000\nrun echo more >> README.md' });
    // Its layer is made and its agent started before the file system fills.
    await waitForEvent(desk, 'editor', ({ event }) => event.type === 'log' && event.text.startsWith('Started '));
    const filler = fillUp(join(layersDir, 'filler.bin'));
    try {
      expect(await desk.waitForStatus('editor', ['error', 'completed'], 60_000)).toBe('error');
      const editor = (await desk.api('GET', '/tasks/editor')).json as { errorMessage: string; worktreePath: string; branch: string };
      expect(editor.errorMessage).toMatch(/^Disk full: the agent's work in the task's worktree could not be written/);
      expect(editor.errorMessage).toContain(`${editor.worktreePath} (file system mounted at ${layersDir})`);
      expect(git(desk.repo, 'rev-parse', editor.branch)).toBe(git(desk.repo, 'rev-parse', 'main'));
    } finally {
      rmSync(filler);
    }
  }, 120_000);

  it('ends a task whose layer cannot be made saying the layers\' file system is full, and runs new work once there is room', async () => {
    const filler = fillUp(join(layersDir, 'filler.bin'));
    await desk.api('POST', '/', { id: 'late', prompt: 'write late.txt 1' });
    expect(await desk.waitForStatus('late', ['error', 'completed'], 60_000)).toBe('error');
    expect((await desk.api('GET', '/tasks/late')).json.errorMessage).toMatch(new RegExp(`^Disk full: the tasks' copy-on-write layers could not be written, the file system holding ${layersDir} has no space left`));

    rmSync(filler);
    await desk.api('POST', '/', { id: 'after', prompt: 'write ok.txt fine' });
    expect(await desk.waitForStatus('after', ['error', 'completed'], 60_000)).toBe('completed');
  }, 120_000);
});
