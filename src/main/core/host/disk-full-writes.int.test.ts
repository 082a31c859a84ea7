// The desk's writes into a worktree or the person's home when the file system under them is full, on a real 8 MiB
// tmpfs: git making a worktree or committing, an upload, a state file returned. Each says "Disk full" and where,
// and none leaves a truncated file that would pass for finished work.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isDeskError } from '../../../shared/desk-error';
import { writeUpload } from '../agent-protocol/worktree-uploads';
import { createGitService, type GitService } from '../git/git-service';
import { createSandbox, git, isolateGitConfig, type Sandbox } from '../git/git-test-fixture';
import { returnStateFiles } from '../sandbox/state-scratch';
import type { ScratchPlan } from '../sandbox/state-files';
import { diskFullRun } from '../tasks/disk-full-run';
import type { RunContext, RunOutcome } from '../tasks/task-runner';
import type { TaskRecord } from '../store/tasks-repo';
import { fillUp, mountSmallFileSystem, unmountSmallFileSystem } from '../test-support/small-file-system';
import { isDiskFull } from './disk-full';

const small = mountSmallFileSystem();

describe.skipIf(small.skip)(`writes onto a full file system${small.skip ? ` (skipped: ${small.skip})` : ''}`, () => {
  const disk = small.dir as string;
  let restoreGit: () => void = () => {};
  let repo: Sandbox | undefined;
  let filler: string | undefined;

  beforeAll(() => { restoreGit = isolateGitConfig(); });
  afterEach(() => {
    if (filler) rmSync(filler, { force: true });
    filler = undefined;
    for (const entry of readdirSync(disk)) rmSync(join(disk, entry), { recursive: true, force: true });
    repo?.cleanup();
    repo = undefined;
  });
  afterAll(() => {
    unmountSmallFileSystem(disk);
    restoreGit();
  });

  /** A repository whose worktrees go onto the small file system (its records stay beside the repository). */
  function serviceOnSmallDisk(): GitService {
    const made = createSandbox();
    repo = made;
    return createGitService({ repoRoot: made.repo, worktreesDir: join(disk, 'worktrees'), hooksDir: made.hooksDir, stateDir: made.stateDir, deskId: made.deskId });
  }

  /** The run of task `id` through diskFullRun, with `work` standing for the turn (the steps of runTask it calls). */
  function runGuarded(service: GitService, id: string, work: (git: GitService) => Promise<RunOutcome>): Promise<RunOutcome> {
    // Only what the wrapper reads of a run's context: the task, its git service, and where facts of the run go.
    const context = { task: { id } as TaskRecord, git: service, update: () => {} } as unknown as RunContext;
    return diskFullRun((given) => work(given.git), { dataDir: (repo as Sandbox).stateDir })(context);
  }

  it('ends a task whose worktree cannot be made in error saying "Disk full", naming the worktree and its file system', async () => {
    const service = serviceOnSmallDisk();
    mkdirSync(join(disk, 'worktrees'));
    filler = fillUp(join(disk, 'filler.bin'));

    const outcome = await runGuarded(service, 'no-room', async (git) => {
      await git.prepareWorktree({ taskId: 'no-room', baseBranch: 'main', dependencyBranches: [] });
      return { status: 'completed', commit: 'never', output: '' };
    });

    expect(outcome.status).toBe('error');
    const message = (outcome as { message: string }).message;
    expect(message).toMatch(/^Disk full: the task's worktree could not be written/);
    expect(message).toContain(service.worktreePathFor('no-room'));
    expect(message).toContain(`file system mounted at ${disk}`);
  });

  it('commits nothing from a worktree whose file system is full, where the agent\'s last write was cut short', async () => {
    const service = serviceOnSmallDisk();
    const { path, branch } = await service.prepareWorktree({ taskId: 'cut-short', baseBranch: 'main', dependencyBranches: [] });
    const person = (repo as Sandbox).repo;
    const before = git(person, 'rev-parse', branch);
    filler = fillUp(join(path, 'generated.bin'));

    const outcome = await runGuarded(service, 'cut-short', async (git) => {
      const commit = await git.commitChanges(path, 'The agent\'s work');
      return { status: 'completed', commit: commit ?? 'none', output: '' };
    });

    expect(outcome).toMatchObject({ status: 'error', message: expect.stringMatching(/^Disk full: the agent's work in the task's worktree could not be written/) });
    expect((outcome as { message: string }).message).toContain(path);
    expect(git(person, 'rev-parse', branch)).toBe(before);
  });

  it('refuses an upload with disk_full and leaves no truncated file in the worktree', async () => {
    const worktree = join(disk, 'worktree');
    mkdirSync(worktree);
    // Room for about half of the upload: the disk is filled around a 1 MiB file, which then goes.
    writeFileSync(join(disk, 'room.bin'), Buffer.alloc(1024 * 1024));
    filler = fillUp(join(disk, 'filler.bin'));
    rmSync(join(disk, 'room.bin'));

    const upload = writeUpload(worktree, 'data/report.csv', Buffer.alloc(2 * 1024 * 1024, 'x'));

    const refused = await upload.then(() => undefined, (error: unknown) => error);
    expect(isDeskError(refused, 'disk_full')).toBe(true);
    expect((refused as Error).message).toMatch(/^Disk full: the upload data\/report.csv could not be written/);
    expect((refused as Error).message).toContain(worktree);
    expect(existsSync(join(worktree, 'data', 'report.csv'))).toBe(false);
  });

  it('leaves the person\'s login file, and the target of their link, as they were when the hand-back finds no room', async () => {
    const home = join(disk, 'home');
    const dotfiles = join(disk, 'dotfiles');
    mkdirSync(home);
    mkdirSync(dotfiles);
    writeFileSync(join(home, '.agent.json'), '{"person":"kept"}');
    writeFileSync(join(dotfiles, 'linked.json'), '{"linked":"kept"}');
    symlinkSync(join(dotfiles, 'linked.json'), join(home, '.linked.json'));
    // The agent's changed copies sit outside the full disk, as the task's scratch does on the data dir.
    const outside = createSandbox();
    repo = outside;
    mkdirSync(join(outside.root, 'scratch'));
    const plan: ScratchPlan = { path: home, source: join(outside.root, 'scratch'), stateFiles: [join(home, '.agent.json'), join(home, '.linked.json')], readOnly: [], symlinks: [] };
    writeFileSync(join(plan.source, '.agent.json'), `{"agent":"${'a'.repeat(1024 * 1024)}"}`);
    writeFileSync(join(plan.source, '.linked.json'), `{"agent":"${'b'.repeat(1024 * 1024)}"}`);
    filler = fillUp(join(disk, 'filler.bin'));

    const problems = await returnStateFiles([plan], new Map([[plan.stateFiles[0] as string, 'before'], [plan.stateFiles[1] as string, 'before']]), (file) => [file]);

    expect(readFileSync(join(home, '.agent.json'), 'utf8')).toBe('{"person":"kept"}');
    expect(readFileSync(join(dotfiles, 'linked.json'), 'utf8')).toBe('{"linked":"kept"}');
    expect(readdirSync(home).sort()).toEqual(['.agent.json', '.linked.json']);
    expect(readdirSync(dotfiles)).toEqual(['linked.json']);
    expect(problems).toHaveLength(2);
    for (const problem of problems) expect(problem).toMatch(/^Disk full: the file system holding .* has no space left/);
  });

  it('recognises git\'s own words for a full disk as disk full', () => {
    expect(isDiskFull(new Error('git worktree add failed (128): fatal: could not write index: No space left on device'))).toBe(true);
    expect(isDiskFull(new Error('fatal: unable to write new index file'))).toBe(false);
  });
});
