import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from './git-runner';
import { createSandbox, git, isolateGitConfig, type Sandbox } from './git-test-fixture';
import { addWorktreeByFiles, adminNameTaken, packedRefInTheWay, plainForWorktreeFiles } from './worktree-by-files';

let restoreConfig: () => void;
beforeAll(() => { restoreConfig = isolateGitConfig(); });
afterAll(() => restoreConfig());

let sandbox: Sandbox;
afterEach(() => sandbox.cleanup());

/** The request for a new worktree `name` on branch `task/<name>` at main's tip, in the sandbox's repository. */
function requestFor(name: string) {
  const commonDir = realpathSync(join(sandbox.repo, '.git'));
  mkdirSync(sandbox.worktreesDir, { recursive: true });
  const path = join(realpathSync(sandbox.worktreesDir), name);
  return { commonDir, path, gitDir: join(commonDir, 'worktrees', name), branch: `task/${name}`, commit: git(sandbox.repo, 'rev-parse', 'main') };
}

const runner = () => createGitRunner({});

/** What the repository holds that a worktree add could leave: admin dirs, task branches, worktree dirs. */
function leftovers(request: ReturnType<typeof requestFor>) {
  return {
    adminDirs: existsSync(join(request.commonDir, 'worktrees')) ? readdirSync(join(request.commonDir, 'worktrees')) : [],
    branches: git(sandbox.repo, 'branch', '--list', 'task/*', '--format=%(refname)'),
    path: existsSync(request.path),
    locks: (readdirSync(join(request.commonDir, 'refs'), { recursive: true }) as string[]).filter((name) => name.endsWith('.lock')),
  };
}

describe('addWorktreeByFiles', () => {
  it('makes the worktree git makes: listed, on its branch at the commit, its files checked out and clean, removable', async () => {
    sandbox = createSandbox({ files: { 'README.md': '# project\n', 'src/app.ts': 'export {};\n' } });
    const request = requestFor('task-a');

    const result = await addWorktreeByFiles(runner(), request);

    expect(result?.exitCode).toBe(0);
    expect(readFileSync(join(request.path, 'src/app.ts'), 'utf8')).toBe('export {};\n');
    expect(git(request.path, 'symbolic-ref', 'HEAD')).toBe('refs/heads/task/task-a');
    expect(git(request.path, 'rev-parse', 'HEAD')).toBe(request.commit);
    expect(git(request.path, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(git(sandbox.repo, 'worktree', 'list', '--porcelain')).toContain(`worktree ${request.path}\nHEAD ${request.commit}\nbranch refs/heads/task/task-a`);
    // Not locked: prune and remove treat it as any worktree.
    expect(existsSync(join(request.gitDir, 'locked'))).toBe(false);
    git(sandbox.repo, 'worktree', 'prune');
    expect(git(sandbox.repo, 'worktree', 'list', '--porcelain')).toContain(`worktree ${request.path}\n`);
    git(request.path, 'commit', '--quiet', '--allow-empty', '-m', 'work');
    expect(git(sandbox.repo, 'rev-parse', 'task/task-a')).toBe(git(request.path, 'rev-parse', 'HEAD'));
    git(sandbox.repo, 'worktree', 'remove', request.path);
    expect(existsSync(request.path)).toBe(false);
    expect(existsSync(request.gitDir)).toBe(false);
  });

  it('leaves the repository as it was and says "ask git" when the config asks for more than the plain case', async () => {
    sandbox = createSandbox();
    git(sandbox.repo, 'config', 'core.sparseCheckout', 'true');
    const request = requestFor('task-b');

    expect(await addWorktreeByFiles(runner(), request)).toBeUndefined();
    expect(leftovers(request)).toEqual({ adminDirs: [], branches: '', path: false, locks: [] });
  });

  it('leaves a taken admin name, an existing path and a branch in the way to git, making nothing', async () => {
    sandbox = createSandbox();
    const taken = requestFor('task-c');
    mkdirSync(join(taken.commonDir, 'worktrees', 'task-c2'), { recursive: true }); // a worktree git numbered
    expect(await addWorktreeByFiles(runner(), taken)).toBeUndefined();
    expect(existsSync(taken.path)).toBe(false);
    expect(git(sandbox.repo, 'branch', '--list', 'task/*')).toBe('');

    const there = requestFor('task-d');
    mkdirSync(there.path);
    expect(await addWorktreeByFiles(runner(), there)).toBeUndefined();
    expect(readdirSync(join(there.commonDir, 'worktrees'))).toEqual(['task-c2']);

    const branchTaken = requestFor('task-e');
    git(sandbox.repo, 'branch', 'task/task-e', 'main');
    git(sandbox.repo, 'pack-refs', '--all');
    expect(await addWorktreeByFiles(runner(), branchTaken)).toBeUndefined();
    expect(existsSync(branchTaken.path)).toBe(false);
    expect(readdirSync(join(branchTaken.commonDir, 'worktrees'))).toEqual(['task-c2']);
    expect(git(sandbox.repo, 'rev-parse', 'task/task-e')).toBe(branchTaken.commit);
  });

  it('leaves a branch whose parent name is a packed branch to git, making nothing', async () => {
    sandbox = createSandbox();
    git(sandbox.repo, 'branch', 'task', 'main');
    git(sandbox.repo, 'pack-refs', '--all');
    const request = requestFor('task-g');

    expect(await addWorktreeByFiles(runner(), request)).toBeUndefined();
    expect(leftovers(request)).toEqual({ adminDirs: [], branches: '', path: false, locks: [] });
  });

  it('undoes everything when git cannot fill the worktree, and answers with git\'s failure', async () => {
    sandbox = createSandbox();
    const request = { ...requestFor('task-f'), commit: 'f'.repeat(40) }; // no such commit

    const result = await addWorktreeByFiles(runner(), request);

    expect(result?.exitCode).not.toBe(0);
    expect(leftovers(request)).toEqual({ adminDirs: [], branches: '', path: false, locks: [] });
  });
});

describe('the plain case', () => {
  it('holds for a config without includes, sparse checkout, per-worktree config, relative links or another ref store', () => {
    expect(plainForWorktreeFiles('[core]\n\trepositoryformatversion = 0\n\tbare = false\n', false)).toBe(true);
    expect(plainForWorktreeFiles('[includeIf "gitdir:~/work/"]\n\tpath = work.inc\n', false)).toBe(false);
    expect(plainForWorktreeFiles('[extensions]\n\tworktreeConfig = true\n', false)).toBe(false);
    expect(plainForWorktreeFiles('[extensions]\n\trefStorage = reftable\n', false)).toBe(false);
    expect(plainForWorktreeFiles('[worktree]\n\tuseRelativePaths = true\n', false)).toBe(false);
    expect(plainForWorktreeFiles('[core]\n', true)).toBe(false);
    expect(plainForWorktreeFiles(undefined, false)).toBe(false);
  });

  it('sees a packed ref in the way: the ref itself, a parent name, or a name below it', () => {
    const packed = (ref: string) => `# pack-refs with: peeled fully-peeled sorted \n${'a'.repeat(40)} ${ref}\n`;
    expect(packedRefInTheWay(packed('refs/heads/desk/x/task'), 'refs/heads/desk/x/task')).toBe(true);
    expect(packedRefInTheWay(packed('refs/heads/desk'), 'refs/heads/desk/x/task')).toBe(true);
    expect(packedRefInTheWay(packed('refs/heads/desk/x/task/more'), 'refs/heads/desk/x/task')).toBe(true);
    expect(packedRefInTheWay(packed('refs/heads/desk/x/task-2'), 'refs/heads/desk/x/task')).toBe(false);
    expect(packedRefInTheWay(packed('refs/tags/desk'), 'refs/heads/desk/x/task')).toBe(false);
  });

  it('knows the admin names git gives a path: the name, or the name and a number', () => {
    expect(adminNameTaken(['task-a'], 'task-a')).toBe(true);
    expect(adminNameTaken(['task-a12'], 'task-a')).toBe(true);
    expect(adminNameTaken(['task-ab', 'task-a-1'], 'task-a')).toBe(false);
  });
});
