// Several repositories in one desk, as clients see them: `/r/<name>/` speaks the Agent Assignment protocol for one
// repository, `/` for the default; tasks commit in their own repository; a dependency may cross repositories;
// the board opens and closes repositories, and a restart opens them all again.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, git } from '../git/git-test-fixture';
import { desksPerTest, startDesk, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();

/** A fresh repository in `root/<name>` with one commit on `main`. */
function repoNamed(root: string, name: string): string {
  const path = join(root, name);
  git(root, 'init', '--quiet', '--initial-branch=main', path);
  commitFiles(path, { 'README.md': `# ${name}\n` }, 'Initial commit');
  return path;
}

/** A desk over `alpha` (the default) and `beta`. */
async function twoRepoDesk(): Promise<{ desk: Desk & { root: string }; alpha: string; beta: string }> {
  const desk = await openDesk();
  const alpha = desk.repo;
  const beta = repoNamed(desk.root, 'beta');
  const added = await desk.api('POST', '/api/repos', { path: beta });
  expect(added.status).toBe(201);
  return { desk, alpha, beta };
}

const fileAt = (repo: string, commit: string, path: string) => git(repo, 'show', `${commit}:${path}`);
const hasCommit = (repo: string, commit: string) => {
  try {
    git(repo, 'cat-file', '-e', `${commit}^{commit}`);
    return true;
  } catch {
    return false;
  }
};

describe('several repositories in one desk', () => {
  it('commits each task in the repository its endpoint names, and lists only that repository\'s tasks there', async () => {
    const { desk, alpha, beta } = await twoRepoDesk();
    expect((await desk.api('POST', '/r/repo/', { id: 'in-alpha', prompt: 'write a.txt from alpha' })).status).toBe(202);
    const submitted = await desk.api('POST', '/r/beta/', { id: 'in-beta', prompt: 'write b.txt from beta' });
    expect(submitted.status).toBe(202);
    expect(submitted.json.repo).toBe('beta');
    await desk.waitForStatus('in-alpha', 'completed');
    await desk.waitForStatus('in-beta', 'completed');

    const inAlpha = (await desk.api('GET', '/r/repo/tasks/in-alpha')).json;
    const inBeta = (await desk.api('GET', '/r/beta/tasks/in-beta')).json;
    expect(fileAt(alpha, inAlpha.commit, 'a.txt')).toBe('from alpha');
    expect(fileAt(beta, inBeta.commit, 'b.txt')).toBe('from beta');
    expect(hasCommit(beta, inAlpha.commit)).toBe(false);
    expect(hasCommit(alpha, inBeta.commit)).toBe(false);

    const listA = await desk.api('GET', '/r/repo/');
    const listB = await desk.api('GET', '/r/beta/');
    expect(listA.json.tasks.map((t: { id: string }) => t.id)).toEqual(['in-alpha']);
    expect(listB.json.tasks.map((t: { id: string }) => t.id)).toEqual(['in-beta']);
    // Another repository's task is not reachable through this one's endpoint.
    expect((await desk.api('GET', '/r/repo/tasks/in-beta')).status).toBe(404);
    expect((await desk.api('GET', '/r/nowhere/')).json.code).toBe('unknown_repository');
    // Without the trailing slash, as a client may be configured, it submits and lists the same.
    expect((await desk.api('POST', '/r/beta', { id: 'bare', prompt: 'say no slash' })).json.repo).toBe('beta');
    expect((await desk.api('GET', '/r/beta')).json.tasks.map((t: { id: string }) => t.id)).toEqual(['in-beta', 'bare']);
    // Agent Protocol clients see the files of a task in any repository of the desk.
    const artifacts = (await desk.api('GET', '/ap/v1/agent/tasks/in-beta/artifacts')).json.artifacts;
    expect(artifacts.map((a: { file_name: string }) => a.file_name)).toEqual(['b.txt']);
    // The board's list takes a repository filter.
    expect((await desk.api('GET', '/api/tasks?repo=beta')).json.tasks.map((t: { id: string }) => t.id)).toEqual(['in-beta', 'bare']);
  });

  it('keeps / as the default repository', async () => {
    const { desk, alpha } = await twoRepoDesk();
    const submitted = await desk.api('POST', '/', { id: 'plain', prompt: 'write plain.txt as before' });
    expect(submitted.status).toBe(202);
    expect(submitted.json.repo).toBe('repo');
    await desk.waitForStatus('plain', 'completed');
    const detail = (await desk.api('GET', '/tasks/plain')).json;
    expect(fileAt(alpha, detail.commit, 'plain.txt')).toBe('as before');
    await desk.api('POST', '/r/beta/', { id: 'elsewhere', prompt: 'say hello' });
    const list = await desk.api('GET', '/');
    expect(list.json.tasks.map((t: { id: string }) => t.id)).toEqual(['plain']);
    // The root's id routes reach every task of the desk, as the board needs.
    expect((await desk.api('GET', '/tasks/elsewhere')).json.repo).toBe('beta');
  });

  it('starts a task waiting for one in another repository only after it, merging in nothing from there', async () => {
    const { desk, beta } = await twoRepoDesk();
    await desk.api('POST', '/r/beta/', { id: 'later', prompt: 'write later.txt after alpha', dependencies: ['first'] });
    await desk.api('POST', '/r/repo/', { id: 'first', prompt: 'sleep 300\nwrite first.txt alpha work' });
    expect((await desk.api('GET', '/r/beta/tasks/later')).json.status).toBe('queued');
    await desk.waitForStatus('later', 'completed');
    const first = (await desk.api('GET', '/tasks/first')).json;
    const later = (await desk.api('GET', '/tasks/later')).json;
    expect(first.status).toBe('completed');
    expect(Date.parse(later.startedAt)).toBeGreaterThanOrEqual(Date.parse(first.finishedAt));
    expect(fileAt(beta, later.commit, 'later.txt')).toBe('after alpha');
    expect(() => fileAt(beta, later.commit, 'first.txt')).toThrow();
  });

  it('retires a task\'s worktree in its first repository when the same id is submitted into another', async () => {
    const { desk, beta } = await twoRepoDesk();
    await desk.api('POST', '/r/beta/', { id: 'moving', prompt: 'write moved.txt in beta' });
    await desk.waitForStatus('moving', 'completed');
    const before = (await desk.api('GET', '/tasks/moving')).json;
    expect(existsSync(before.worktreePath)).toBe(true);
    await desk.api('POST', '/r/repo/', { id: 'moving', prompt: 'write moved.txt in alpha' });
    await desk.waitForStatus('moving', 'completed');
    expect((await desk.api('GET', '/tasks/moving')).json.repo).toBe('repo');
    expect(existsSync(before.worktreePath)).toBe(false);
    // Nothing is lost: the beta run's commit is kept under an archive ref there.
    expect(git(beta, 'for-each-ref', '--format=%(objectname)', 'refs/desk/archive/')).toContain(before.commit);
  });

  it('refuses a folder that is not a git repository, and a repository whose tasks have not finished; removing leaves the folder', async () => {
    const { desk, beta } = await twoRepoDesk();
    const plain = join(desk.root, 'plain-folder');
    mkdirSync(plain);
    const refused = await desk.api('POST', '/api/repos', { path: plain });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('not_a_git_repository');
    expect(refused.json.message).toContain(plain);
    expect((await desk.api('POST', '/api/repos', { path: beta })).json.code).toBe('repository_open');

    await desk.api('POST', '/r/beta/', { id: 'busy', prompt: 'sleep 60000' });
    const busy = await desk.api('DELETE', '/api/repos/beta');
    expect(busy.status).toBe(409);
    expect(busy.json.message).toContain('busy');
    await desk.api('DELETE', '/tasks/busy');
    const removed = await desk.api('DELETE', '/api/repos/beta');
    expect(removed.status).toBe(200);
    expect(removed.json.repos.map((r: { name: string }) => r.name)).toEqual(['repo']);
    expect(existsSync(join(beta, 'README.md'))).toBe(true);
    expect((await desk.api('POST', '/r/beta/', { id: 'gone', prompt: 'say hi' })).status).toBe(404);
    expect((await desk.api('DELETE', '/api/repos/repo')).json.code).toBe('default_repository');
  });

  it('opens every repository again after a restart', async () => {
    const { desk } = await twoRepoDesk();
    await desk.api('POST', '/r/beta/', { id: 'kept', prompt: 'say kept' });
    await desk.waitForStatus('kept', 'completed');
    await desk.close();
    const again = await startDesk({ reuse: { root: desk.root, repo: desk.repo, dataDir: desk.dataDir } });
    try {
      const repos = (await again.api('GET', '/api/repos')).json.repos;
      expect(repos.map((r: { name: string; isDefault: boolean; endpoint: string }) => [r.name, r.isDefault, r.endpoint])).toEqual([['repo', true, '/'], ['beta', false, '/r/beta/']]);
      expect((await again.api('GET', '/r/beta/')).json.tasks.map((t: { id: string; repo: string }) => [t.id, t.repo])).toEqual([['kept', 'beta']]);
    } finally {
      await again.close();
    }
  });

  it('opens repositories given when the desk starts, each under its folder name', async () => {
    const desk = await openDesk();
    const gamma = repoNamed(desk.root, 'gamma');
    await desk.close();
    const again = await startDesk({ reuse: { root: desk.root, repo: desk.repo, dataDir: desk.dataDir }, moreRepos: [gamma] });
    try {
      expect((await again.api('GET', '/api/repos')).json.repos.map((r: { name: string }) => r.name)).toEqual(['repo', 'gamma']);
      expect((await again.api('POST', '/r/gamma/', { id: 'g', prompt: 'write g.txt gamma' })).status).toBe(202);
      await again.waitForStatus('g', 'completed');
      expect(fileAt(gamma, (await again.api('GET', '/r/gamma/g')).json.commit, 'g.txt')).toBe('gamma');
    } finally {
      await again.close();
    }
  });
});
