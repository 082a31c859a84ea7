// The person's repository on a full file system (a real 8 MiB tmpfs), the task's worktree and the desk's data on
// another with room: taking the agent's commits and committing the turn's work both say "Disk full" and name the
// repository's file system, which is the one to free, and the task's branch stays where it was.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGitRunner } from '../git/git-runner';
import { createGitService, type GitService } from '../git/git-service';
import { commitFiles, git, isolateGitConfig } from '../git/git-test-fixture';
import { openTaskGitDir } from '../git/task-git-dir';
import type { TaskRecord } from '../store/tasks-repo';
import { diskFullRun } from '../tasks/disk-full-run';
import type { RunContext } from '../tasks/task-runner';
import { fillUp, mountSmallFileSystem, unmountSmallFileSystem } from '../test-support/small-file-system';

const small = mountSmallFileSystem();

describe.skipIf(small.skip)(`the person's repository on a full file system${small.skip ? ` (skipped: ${small.skip})` : ''}`, () => {
  const disk = small.dir as string;
  let restoreGit: () => void = () => {};
  let elsewhere: string;
  let repo: string;
  let service: GitService;
  let filler: string | undefined;

  beforeAll(() => { restoreGit = isolateGitConfig(); });
  beforeEach(() => {
    repo = join(disk, 'project');
    mkdirSync(repo);
    git(repo, 'init', '--quiet', '--initial-branch=main');
    commitFiles(repo, { 'README.md': '# project\n' }, 'initial');
    elsewhere = mkdtempSync(join(tmpdir(), 'desk-roomy-'));
    service = createGitService({
      repoRoot: repo, worktreesDir: join(elsewhere, 'worktrees'), hooksDir: join(elsewhere, 'hooks'), stateDir: join(elsewhere, 'state'), deskId: 'testdesk',
    });
  });
  afterEach(() => {
    if (filler) rmSync(filler, { force: true });
    filler = undefined;
    rmSync(repo, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });
  afterAll(() => {
    unmountSmallFileSystem(disk);
    restoreGit();
  });

  it('ends a turn whose commit finds no room in the repository saying "Disk full" and naming the repository\'s file system', async () => {
    const { path, branch } = await service.prepareWorktree({ taskId: 'big', baseBranch: 'main', dependencyBranches: [] });
    const before = git(repo, 'rev-parse', branch);
    // Work that does not compress to nothing: its objects need room where the repository keeps them.
    writeFileSync(join(path, 'data.bin'), Buffer.from(Array.from({ length: 512 * 1024 }, (_, i) => (i * 7919) % 251)));
    filler = fillUp(join(disk, 'filler.bin'));
    const context = { task: { id: 'big' } as TaskRecord, git: service, update: () => {} } as unknown as RunContext;

    const outcome = await diskFullRun(async (given) => {
      const commit = await given.git.commitChanges(path, 'The agent\'s work');
      return { status: 'completed', commit: commit ?? 'none', output: '' };
    }, { dataDir: join(elsewhere, 'state'), repoGitDirOf: () => join(repo, '.git') })(context);

    expect(outcome.status).toBe('error');
    const message = (outcome as { message: string }).message;
    expect(message).toMatch(/^Disk full: the task's commits in your repository could not be written/);
    expect(message).toContain(`${join(repo, '.git')} (file system mounted at ${disk})`);
    expect(git(repo, 'rev-parse', branch)).toBe(before);
  });

  it('says the agent\'s own commits could not be taken for want of room in the repository, naming its file system', async () => {
    const { path, branch } = await service.prepareWorktree({ taskId: 'agent', baseBranch: 'main', dependencyBranches: [] });
    const before = git(repo, 'rev-parse', branch);
    const worktreeGitDir = readFileSync(join(path, '.git'), 'utf8').trim().replace(/^gitdir: /, '');
    const taskGit = await openTaskGitDir(createGitRunner({ hooksDir: join(elsewhere, 'hooks') }), {
      dir: join(elsewhere, 'task-git'), commonDir: join(repo, '.git'), worktree: path, worktreeGitDir,
    });
    // The agent commits in its own git dir (on the roomy file system), as it does inside the sandbox.
    writeFileSync(join(path, 'data.bin'), Buffer.from(Array.from({ length: 512 * 1024 }, (_, i) => (i * 7919) % 251)));
    git(path, `--git-dir=${taskGit.dir}`, `--work-tree=${path}`, 'add', 'data.bin');
    git(path, `--git-dir=${taskGit.dir}`, `--work-tree=${path}`, 'commit', '-q', '-m', 'agent work');
    filler = fillUp(join(disk, 'filler.bin'));
    const lines: string[] = [];

    expect(await taskGit.takeCommits((line) => lines.push(line))).toBeUndefined();

    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^The agent's own commits were not taken: Disk full: the agent's commits could not be written/);
    expect(lines[0]).toContain(`${join(repo, '.git')} (file system mounted at ${disk})`);
    expect(git(repo, 'rev-parse', branch)).toBe(before);
  });
});
