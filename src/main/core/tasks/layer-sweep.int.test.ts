// The start-up sweep of task layers (issue 41), through a real desk, the real sandbox and scripted agent and real git:
// layers a crash or a worktree removed while the desk was down left behind are removed and their leases on the
// snapshot dropped, while a live task's layer stays and its task still commits; what cannot be read is left alone.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../git/git-test-fixture';
import { desksPerTest, policyAllowing, startDesk, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();
const sandboxed = existsSync('/usr/bin/bwrap') || process.env.DESK_REQUIRE_SANDBOX === '1';
const FILES = { 'README.md': '# Fixture\n', 'src/a.ts': 'export const a = 1;\n' };
const policy = policyAllowing('execute', 'edit', 'delete');

const layerFolder = (d: { dataDir: string }, target: string) => join(d.dataDir, 'task-layers', createHash('sha256').update(target).digest('hex').slice(0, 16));
/** Every lease on every snapshot: the task ids holding them. */
function leases(d: { dataDir: string }): string[] {
  const snapshots = join(d.dataDir, 'snapshots');
  return readdirSync(snapshots, { recursive: true }).map(String).filter((name) => name.endsWith('.lease'))
    .map((name) => readFileSync(join(snapshots, name), 'utf8')).sort();
}
async function taskOf(d: Desk, id: string) {
  return (await d.api('GET', `/tasks/${id}`)).json as { status: string; commit?: string; worktreePath: string };
}

describe.skipIf(!sandboxed)('the start-up sweep of task layers', () => {
  it('removes the layers no worktree uses and drops their leases, and keeps a live task working', async () => {
    const first = await startDesk({ files: FILES, layers: 'always', policy });
    for (const id of ['live', 'gone']) {
      await first.api('POST', '/', { id, prompt: `write ${id}.txt ${id}` });
      expect(await first.waitForStatus(id, ['completed', 'error'])).toBe('completed');
    }
    const live = await taskOf(first, 'live');
    const gone = await taskOf(first, 'gone');
    const ghostPath = first.core.git.worktreePathFor('ghost');
    const snapshotTree = JSON.parse(readFileSync(join(layerFolder(first, live.worktreePath), 'layer.json'), 'utf8')).lower as string;
    await first.close();
    expect(leases(first)).toEqual(['gone', 'live']);

    // While the desk is down: the worktree of `gone` is removed with git, its layer left behind.
    git(first.repo, 'worktree', 'remove', '--force', gone.worktreePath);
    // A crash between a layer's making and its worktree's: a layer (and lease) of a task that has no worktree at all.
    const ghost = layerFolder(first, ghostPath);
    mkdirSync(join(ghost, 'upper'), { recursive: true });
    writeFileSync(join(ghost, 'upper', 'work.txt'), 'ghost\n');
    writeFileSync(join(ghost, 'layer.json'), JSON.stringify({ taskId: 'ghost', base: 'f'.repeat(40), lower: snapshotTree, target: ghostPath }));
    const leasesDir = join(snapshotTree, '..', 'leases');
    writeFileSync(join(leasesDir, `${createHash('sha256').update('ghost').digest('hex').slice(0, 40)}.lease`), 'ghost');
    // A removal a crash stopped part way, and a layer whose file cannot be read.
    mkdirSync(join(first.dataDir, 'task-layers', '.removing-0123456789abcdef-x', 'upper'), { recursive: true });
    const unreadable = join(first.dataDir, 'task-layers', 'abcdefabcdefabcd');
    mkdirSync(join(unreadable, 'upper'), { recursive: true });
    writeFileSync(join(unreadable, 'layer.json'), 'not json');

    const logged: string[] = [];
    const d = await openDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir }, layers: 'always', policy, log: (line) => logged.push(line) });
    await expect.poll(() => existsSync(layerFolder(d, gone.worktreePath)) || existsSync(ghost)).toBe(false);
    await expect.poll(() => leases(d)).toEqual(['live']);
    // The removed layers are renamed out of use first and deleted at the sweep's end: wait for that end.
    await expect.poll(() => readdirSync(join(d.dataDir, 'task-layers')).sort())
      .toEqual(['abcdefabcdefabcd', layerFolder(d, live.worktreePath).split('/').at(-1)].sort());
    expect(logged.join('\n')).toMatch(/Task layer abcdefabcdefabcd is left alone: its layer\.json cannot be read/);
    expect(logged.join('\n')).toContain(`its worktree's folder ${gone.worktreePath} is gone`);
    // Nothing of the person's: the repository still has the live task's worktree, its branch and the removed one's.
    expect(git(d.repo, 'worktree', 'list')).toContain(live.worktreePath);

    expect((await d.api('POST', '/tasks/live/prompt', { prompt: 'run cat live.txt > again.txt' })).status).toBe(202);
    await d.waitForStatus('live', 'in-progress');
    expect(await d.waitForStatus('live', ['completed', 'error'])).toBe('completed');
    const commit = (await taskOf(d, 'live')).commit as string;
    expect(git(d.repo, 'show', `${commit}:again.txt`)).toBe('live');
    expect(git(d.repo, 'rev-parse', `${commit}^`)).toBe(live.commit);
  });

  it('keeps the lease of a task submitted again under its id, which retiring its earlier worktree had dropped', async () => {
    const d = await openDesk({ files: FILES, layers: 'always', policy });
    await d.api('POST', '/', { id: 'again', prompt: 'write one.txt 1' });
    await d.waitForStatus('again', 'completed');
    await d.api('POST', '/', { id: 'again', prompt: 'write two.txt 2' });
    await d.waitForStatus('again', 'in-progress');
    expect(await d.waitForStatus('again', ['completed', 'error'])).toBe('completed');
    expect(leases(d)).toEqual(['again']);
  });
});
