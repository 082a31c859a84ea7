// A docker task whose worktree is a copy-on-write layer over a snapshot of its base (docs/runners.md, "Layered
// worktrees on docker"), against the daemon docker-daemon.ts starts: the daemon mounts the layer as a named volume,
// the container sees the snapshot's files and the agent's git works on them, the desk reads and writes them through
// the daemon's mount, and the turn's commit is exactly the task's change; the worktree's folder holds only `.git`,
// the task adds only what it wrote to the disk, and the person's repository is untouched.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { loadDeskId } from '../../src/main/core/git/desk-id';
import { git } from '../../src/main/core/git/git-test-fixture';
import { DESK_LABEL } from '../../src/main/core/runners/docker/container-spec';
import { containerRunsRoot } from '../../src/main/core/runners/docker/container-task-git';
import { layerVolumeOptions } from '../../src/main/core/runners/docker/layer-volume-spec';
import { taskLayersDir } from '../../src/main/core/sandbox/task-layers';
import { desksPerTest, policyAllowing, startDesk, taskEvents, TEST_TOKEN, type Desk } from '../../src/main/core/test-support/desk-harness';
import { dockerRunnersFor } from './docker-test-config';

const host = inject('dockerHost');
const image = inject('dockerImage');
const skipReason = inject('dockerSkip');

/** A file much larger than what the task writes: the layer must not copy it. */
const BIG = 'x'.repeat(1024 * 1024);
const FILES = {
  'README.md': '# Fixture\n',
  'src/keep.ts': 'export const keep = 1;\n',
  'src/old.ts': 'export const old = 1;\n',
  'big.txt': BIG,
  '.gitignore': '*.log\n',
};

const openDesk = desksPerTest();
let docker: Docker;

/** An image with nothing in it but a /tmp: no shell. */
async function emptyImage(): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'desk-empty-image-'));
  try {
    mkdirSync(join(root, 'tmp'));
    const tar = spawn('tar', ['-C', root, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const stream = await docker.importImage(tar.stdout as unknown as string, { repo: 'desk-test-empty', tag: 'latest' });
    await new Promise<void>((resolve, reject) => docker.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve())));
    return 'desk-test-empty:latest';
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Bytes of the files below `dir` (what it costs on disk, near enough). */
function bytesBelow(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

async function logOf(d: Desk, id: string): Promise<string> {
  return (await taskEvents(d, id)).map((event) => JSON.stringify(event)).join('\n');
}

async function leftOnDocker(d: Desk): Promise<{ containers: number; volumes: number }> {
  const label = `${DESK_LABEL}=${await loadDeskId(d.dataDir)}`;
  const containers = await docker.listContainers({ all: true, filters: { label: [label] } });
  const { Volumes } = await docker.listVolumes({ filters: { label: [label] } });
  return { containers: containers.length, volumes: (Volumes ?? []).length };
}

if (!host) describe.skip(`layered worktrees on the docker runner (skipped: ${skipReason})`, () => { it('needs Docker', () => {}); });
else describe('a docker task whose worktree is a layer over a snapshot of the base', () => {
  beforeAll(() => { docker = new Docker({ socketPath: new URL(host).pathname }); });

  it("commits exactly its change, its container saw the snapshot's files with git working on them, and it costs what it wrote", async () => {
    const d = await openDesk({ files: FILES, layers: 'always', runners: dockerRunnersFor(host, image), policy: policyAllowing('execute', 'edit', 'delete') });
    const personHead = git(d.repo, 'rev-parse', 'HEAD');
    const script = [
      'read README.md',
      'write src/new.ts export const created = 1;',
      'write src/keep.ts export const keep = 2;',
      'delete src/old.ts',
      // The test image has a shell and git, nothing more: its builtins read the files.
      'run read -r first < README.md && echo "$first" > seen.txt && git status --porcelain > status.txt && git hash-object big.txt > big-hash.txt',
    ].join('\n');
    expect((await d.api('POST', '/', { id: 'layered', prompt: script, runner: 'docker' })).status).toBe(202);
    expect(await d.waitForStatus('layered', ['completed', 'error'], 120_000)).toBe('completed');
    const task = (await d.api('GET', '/tasks/layered')).json as { commit: string; worktreePath: string };
    const log = await logOf(d, 'layered');
    expect(log).toContain('copy-on-write layer over the snapshot of main');
    expect(log).toContain('its copy-on-write layer, mounted by the daemon');
    // The desk read the snapshot's file for the agent through the daemon's mount.
    expect(log).toContain('# Fixture');
    expect(log).not.toContain('Refused');

    const tree = git(d.repo, 'ls-tree', '-r', '--name-only', task.commit).split('\n').sort();
    expect(tree).toEqual(['.gitignore', 'README.md', 'big-hash.txt', 'big.txt', 'seen.txt', 'src/keep.ts', 'src/new.ts', 'status.txt']);
    expect(git(d.repo, 'show', `${task.commit}:src/keep.ts`)).toBe('export const keep = 2;');
    expect(git(d.repo, 'show', `${task.commit}:src/new.ts`)).toBe('export const created = 1;');
    expect(git(d.repo, 'show', `${task.commit}:seen.txt`)).toBe('# Fixture');
    expect(git(d.repo, 'show', `${task.commit}:big-hash.txt`)).toBe(git(d.repo, 'rev-parse', `${personHead}:big.txt`));
    // The agent's git in its container saw the layered view as a checkout: only the task's own changes.
    expect(git(d.repo, 'show', `${task.commit}:status.txt`).split('\n').sort()).toEqual([' D src/old.ts', ' M src/keep.ts', '?? seen.txt', '?? src/new.ts', '?? status.txt']);
    expect(git(d.repo, 'diff', '--name-status', `${personHead}`, task.commit).split('\n').sort()).toEqual(['A\tbig-hash.txt', 'A\tseen.txt', 'A\tsrc/new.ts', 'A\tstatus.txt', 'D\tsrc/old.ts', 'M\tsrc/keep.ts']);

    // On disk: the worktree's folder holds the link alone; the task's layer, what it wrote, not the 1 MB file.
    expect(readdirSync(task.worktreePath)).toEqual(['.git']);
    expect(bytesBelow(taskLayersDir(d.dataDir))).toBeLessThan(64 * 1024);
    // Nothing of the run is left on the daemon or in the data dir; the person's checkout and branch are as they were.
    expect(await leftOnDocker(d)).toEqual({ containers: 0, volumes: 0 });
    expect(readdirSync(containerRunsRoot(d.dataDir))).toEqual([]);
    expect(git(d.repo, 'status', '--porcelain')).toBe('');
    expect(git(d.repo, 'rev-parse', 'HEAD')).toBe(personHead);
  });

  it("shows the live diff while its container runs, and a follow-up's container continues from the layer with git seeing the first turn as committed", async () => {
    const d = await openDesk({ files: FILES, layers: 'always', runners: dockerRunnersFor(host, image), policy: policyAllowing('execute', 'edit', 'delete') });
    expect((await d.api('POST', '/', { id: 'turns', prompt: 'write one.txt 1\nsleep 6000', runner: 'docker' })).status).toBe(202);
    await d.waitForStatus('turns', 'in-progress');
    // Read through the daemon's mount while the layer is lent to it: the task's write shows before its turn ends.
    await expect.poll(async () => {
      const diff = await d.api('GET', '/api/tasks/turns/diff');
      return diff.status === 200 && diff.json.live === true ? (diff.json.files as { path: string }[]).map((file) => file.path) : diff.json;
    }, { timeout: 30_000, interval: 250 }).toEqual(['one.txt']);
    expect(await d.waitForStatus('turns', ['completed', 'error'], 120_000)).toBe('completed');
    const first = (await d.api('GET', '/tasks/turns')).json.commit as string;

    expect((await d.api('POST', '/tasks/turns/prompt', { prompt: 'run git status --porcelain > status.txt && read -r x < one.txt && echo "$x" > copy.txt' })).status).toBe(202);
    await d.waitForStatus('turns', 'in-progress');
    expect(await d.waitForStatus('turns', ['completed', 'error'], 120_000)).toBe('completed');
    const followUp = (await d.api('GET', '/tasks/turns')).json as { commit: string; worktreePath: string };
    expect(git(d.repo, 'rev-parse', `${followUp.commit}^`)).toBe(first);
    expect(git(d.repo, 'show', `${followUp.commit}:copy.txt`)).toBe('1');
    expect(git(d.repo, 'show', `${followUp.commit}:status.txt`)).toBe('?? status.txt');
    expect(readdirSync(followUp.worktreePath)).toEqual(['.git']);
    expect(await leftOnDocker(d)).toEqual({ containers: 0, volumes: 0 });
  });

  it("runs the repository's check in a container of its own on the layer the turn committed", async () => {
    const files = { ...FILES, '.desk/config.json': JSON.stringify({ check: 'test "$(git status --porcelain)" = "" && read -r x < one.txt && test "$x" = 1' }) };
    const d = await openDesk({ files, layers: 'always', runners: dockerRunnersFor(host, image), policy: policyAllowing('execute', 'edit', 'delete') });
    await d.api('POST', '/', { id: 'checked', prompt: 'write one.txt 1', runner: 'docker' });
    expect(await d.waitForStatus('checked', ['completed', 'error'], 120_000)).toBe('completed');
    expect((await d.api('GET', '/tasks/checked')).json.check).toMatchObject({ status: 'passed' });
    expect(await leftOnDocker(d)).toEqual({ containers: 0, volumes: 0 });
  });

  it('gives the layer back when its run is cancelled: no container or volume is left, and a follow-up works on it', async () => {
    const d = await openDesk({ files: FILES, layers: 'always', runners: dockerRunnersFor(host, image), policy: policyAllowing('execute', 'edit', 'delete') });
    await d.api('POST', '/', { id: 'stopped', prompt: 'write early.txt 1\nsleep 60000', runner: 'docker' });
    await expect.poll(async () => (await d.api('GET', '/api/tasks/stopped/diff')).json.files?.length, { timeout: 30_000, interval: 250 }).toBe(1);
    expect((await d.api('DELETE', '/stopped')).status).toBeLessThan(300);
    expect(await d.waitForStatus('stopped', ['cancelled', 'error'], 30_000)).toBe('cancelled');
    expect(await leftOnDocker(d)).toEqual({ containers: 0, volumes: 0 });
    // What the cancelled run wrote stays in the layer: a follow-up lends it again and commits it with its own.
    expect((await d.api('POST', '/tasks/stopped/prompt', { prompt: 'write late.txt 2' })).status).toBe(202);
    await d.waitForStatus('stopped', 'in-progress');
    expect(await d.waitForStatus('stopped', ['completed', 'error'], 120_000)).toBe('completed');
    const commit = (await d.api('GET', '/tasks/stopped')).json.commit as string;
    expect(git(d.repo, 'ls-tree', '-r', '--name-only', commit).split('\n')).toEqual(expect.arrayContaining(['early.txt', 'late.txt']));
    expect(await leftOnDocker(d)).toEqual({ containers: 0, volumes: 0 });
  });

  it('ends in error saying why when the image cannot hold the layer mounted (no sh), and leaves nothing on the daemon', async () => {
    const empty = await emptyImage();
    const d = await openDesk({ files: FILES, layers: 'always', runners: dockerRunnersFor(host, empty), policy: policyAllowing('execute', 'edit', 'delete') });
    await d.api('POST', '/', { id: 'no-shell', prompt: 'write x.txt x', runner: 'docker' });
    expect(await d.waitForStatus('no-shell', ['completed', 'error'], 60_000)).toBe('error');
    expect((await d.api('GET', '/tasks/no-shell')).json.errorMessage).toMatch(/copy-on-write layer, which the Docker daemon could not mount for its containers: .*Layered worktrees on docker/s);
    expect(await leftOnDocker(d)).toEqual({ containers: 0, volumes: 0 });
  });

  it('leaves no mount of a layer behind a desk killed with SIGKILL mid-run: the restarted desk removes it and runs the task again', async () => {
    const first = await startDesk({ files: FILES, layers: 'always', runners: dockerRunnersFor(host, image) });
    await first.close();
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'desk-process.ts'), JSON.stringify({
      repo: first.repo, dataDir: first.dataDir, token: TEST_TOKEN, runners: dockerRunnersFor(host, image), layers: 'always',
    })], { cwd: join(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [line] = await once(createInterface({ input: child.stdout as NodeJS.ReadableStream }), 'line') as [string];
      const submitted = await fetch(`${line.replace('listening ', '')}/`, {
        method: 'POST', headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'survivor', prompt: 'write early.txt 1\nsleep 10000\nwrite after.txt ran again', runner: 'docker' }),
      });
      expect(submitted.status).toBe(202);
      // The run holds the layer: its keeper and agent containers, and the volume, mounted.
      await expect.poll(() => leftOnDocker(first), { timeout: 60_000, interval: 200 }).toEqual({ containers: 2, volumes: 1 });
      child.kill('SIGKILL');
      await once(child, 'exit');
      expect((await leftOnDocker(first)).volumes).toBe(1);

      const restarted = await openDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir }, layers: 'always', runners: dockerRunnersFor(host, image) });
      expect(await restarted.waitForStatus('survivor', ['completed', 'error'], 120_000)).toBe('completed');
      const detail = (await restarted.api('GET', '/tasks/survivor')).json as { commit: string; attempt: number; worktreePath: string };
      expect(detail.attempt).toBe(2);
      expect(git(restarted.repo, 'ls-tree', '-r', '--name-only', detail.commit).split('\n')).toEqual(expect.arrayContaining(['early.txt', 'after.txt']));
      expect(readdirSync(detail.worktreePath)).toEqual(['.git']);
      expect(await leftOnDocker(restarted)).toEqual({ containers: 0, volumes: 0 });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('leaves no layer volume behind a desk that was stopped: the next start removes it before any task runs', async () => {
    const first = await startDesk({ files: FILES, layers: 'always', runners: dockerRunnersFor(host, image) });
    const deskId = await loadDeskId(first.dataDir);
    // What a desk killed mid-run leaves: a volume with its labels (never mounted here: its paths need not exist).
    await docker.createVolume(layerVolumeOptions({ deskId, taskId: 'killed', lower: '/nowhere/lower', upper: '/nowhere/upper', work: '/nowhere/work' }));
    const otherDesk = await docker.createVolume(layerVolumeOptions({ deskId: 'otherdsk', taskId: 'killed', lower: '/nowhere/lower', upper: '/nowhere/upper', work: '/nowhere/work' }));
    expect(await leftOnDocker(first)).toEqual({ containers: 0, volumes: 1 });
    await first.close();
    const again = await openDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir }, layers: 'always', runners: dockerRunnersFor(host, image) });
    expect(await leftOnDocker(again)).toEqual({ containers: 0, volumes: 0 });
    // Another desk's volume is not this desk's to remove.
    expect((await docker.getVolume(otherDesk.name).inspect()).Name).toBe(otherDesk.name);
    await docker.getVolume(otherDesk.name).remove();
  });
});
