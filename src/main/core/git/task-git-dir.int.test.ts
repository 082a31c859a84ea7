// The task's own git dir with real git in a temp repository, outside any sandbox: what it shows the agent's git,
// what it costs the desk, and when the desk takes or refuses the agent's commits.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGitRunner, type GitRunner } from './git-runner';
import { commitFiles, createSandbox, git, isolateGitConfig, type Sandbox } from './git-test-fixture';
import { openTaskGitDir, type TaskGitDir } from './task-git-dir';

describe('a task\'s own git dir', () => {
  let restore: () => void;
  let box: Sandbox;
  let worktree: string;
  let branch: string;
  let calls: string[];
  let lines: string[];
  let taskGit: TaskGitDir;
  /** The desk's git, each command it runs written down: the count is what a task costs. */
  let counted: GitRunner;

  beforeAll(() => { restore = isolateGitConfig(); });
  afterAll(() => restore());
  beforeEach(async () => {
    box = createSandbox();
    git(box.repo, 'tag', 'v1');
    const prepared = await box.service.prepareWorktree({ taskId: 't1', baseBranch: 'main', dependencyBranches: [] });
    worktree = prepared.path;
    branch = prepared.branch;
    const real = createGitRunner({ hooksDir: box.hooksDir });
    calls = [];
    lines = [];
    counted = {
      exec: (repo, args, options) => { calls.push(args[0] ?? ''); return real.exec(repo, args, options); },
      run: (repo, args, options) => { calls.push(args[0] ?? ''); return real.run(repo, args, options); },
      blob: (repo, spec) => real.blob(repo, spec),
      configuredKeys: (repo) => real.configuredKeys(repo),
      invocation: (repo, args, options) => real.invocation(repo, args, options),
    };
    const worktreeGitDir = readFileSync(join(worktree, '.git'), 'utf8').trim().replace(/^gitdir: /, '');
    taskGit = await openTaskGitDir(counted, { dir: join(box.root, 'task-git'), commonDir: join(box.repo, '.git'), worktree, worktreeGitDir });
  });
  afterEach(() => box.cleanup());

  /** git as the agent runs it inside the sandbox, where the worktree's `.git` names the task's git dir. */
  const agentGit = (...args: string[]) => git(worktree, `--git-dir=${taskGit.dir}`, `--work-tree=${worktree}`, ...args);

  it('costs no git process to make from plain ref files, and none after a turn whose agent made no commit', async () => {
    expect(calls).toEqual([]);
    expect(await taskGit.takeCommits((line) => lines.push(line))).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('shows the agent its branch, a clean status, and the person\'s branches and tags to log and diff against', () => {
    expect(agentGit('symbolic-ref', 'HEAD')).toBe(`refs/heads/${branch}`);
    expect(agentGit('status', '--porcelain')).toBe('');
    writeFileSync(join(worktree, 'new.txt'), 'x\n');
    expect(agentGit('diff', '--stat', 'main', '--', 'README.md')).toBe('');
    expect(agentGit('log', '--format=%s', 'main')).toBe('initial');
    expect(agentGit('rev-parse', 'v1')).toBe(git(box.repo, 'rev-parse', 'v1'));
  });

  it('takes the agent\'s commit onto the task\'s branch and makes the worktree\'s index that commit', async () => {
    writeFileSync(join(worktree, 'new.txt'), 'x\n');
    agentGit('add', 'new.txt');
    agentGit('commit', '-q', '-m', 'agent work');
    const tip = agentGit('rev-parse', 'HEAD');
    expect(await taskGit.takeCommits((line) => lines.push(line))).toBe(tip);
    expect(git(box.repo, 'rev-parse', branch)).toBe(tip);
    expect(git(worktree, 'status', '--porcelain')).toBe('');
    expect(lines).toEqual([expect.stringMatching(/^Took the agent's own commits/)]);
  });

  it('refuses the agent\'s commit when the task\'s branch moved meanwhile, and leaves the branch where it went', async () => {
    writeFileSync(join(worktree, 'new.txt'), 'x\n');
    agentGit('add', 'new.txt');
    agentGit('commit', '-q', '-m', 'agent work');
    const elsewhere = commitFiles(box.repo, { 'other.txt': 'y\n' }, 'on main');
    git(box.repo, 'update-ref', `refs/heads/${branch}`, elsewhere);
    expect(await taskGit.takeCommits((line) => lines.push(line))).toBeUndefined();
    expect(git(box.repo, 'rev-parse', branch)).toBe(elsewhere);
    expect(lines).toEqual([expect.stringMatching(/^The agent's own commits were not taken: .*moved meanwhile/)]);
  });

  it('refuses the agent\'s commits when one of them holds its vendor-local settings, even one a later commit removed', async () => {
    const start = git(box.repo, 'rev-parse', branch);
    writeFileSync(join(worktree, 'new.txt'), 'x\n');
    mkdirSync(join(worktree, '.claude'));
    writeFileSync(join(worktree, '.claude', 'settings.local.json'), '{"permissions":{"allow":["Bash"]}}\n');
    agentGit('add', '-A');
    agentGit('commit', '-q', '-m', 'agent work');
    agentGit('rm', '-q', '--cached', '.claude/settings.local.json');
    agentGit('commit', '-q', '-m', 'tidy up');
    expect(await taskGit.takeCommits((line) => lines.push(line))).toBeUndefined();
    expect(git(box.repo, 'rev-parse', branch)).toBe(start);
    expect(lines).toEqual([expect.stringMatching(/^The agent's own commits were not taken: they hold \.claude\/settings\.local\.json \(Claude Code's local settings\), which never enters a task's commit\./)]);
  });

  it('shows the agent a merge waiting on conflicts, and once it commits the merge itself the worktree has no merge left', async () => {
    commitFiles(worktree, { 'README.md': '# ours\n' }, 'ours');
    commitFiles(box.repo, { 'README.md': '# theirs\n' }, 'theirs');
    expect(() => git(worktree, 'merge', '--no-edit', 'main')).toThrow();
    const worktreeGitDir = readFileSync(join(worktree, '.git'), 'utf8').trim().replace(/^gitdir: /, '');
    const again = await openTaskGitDir(counted, { dir: join(box.root, 'task-git-2'), commonDir: join(box.repo, '.git'), worktree, worktreeGitDir });
    const inside = (...args: string[]) => git(worktree, `--git-dir=${again.dir}`, `--work-tree=${worktree}`, ...args);
    expect(inside('status', '--porcelain')).toBe('UU README.md');
    writeFileSync(join(worktree, 'README.md'), '# both\n');
    inside('add', 'README.md');
    inside('commit', '-q', '--no-edit');
    const tip = inside('rev-parse', 'HEAD');
    expect(inside('rev-list', '--parents', '-n', '1', 'HEAD').split(' ')).toHaveLength(3);
    expect(await again.takeCommits((line) => lines.push(line))).toBe(tip);
    expect(() => git(worktree, 'rev-parse', '-q', '--verify', 'MERGE_HEAD')).toThrow();
    expect(git(worktree, 'status', '--porcelain')).toBe('');
  });
});
