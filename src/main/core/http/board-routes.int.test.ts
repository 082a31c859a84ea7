// The board's API as a client sees it: review (diff, approve, reject, re-run), dependency links, settings and the served board.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { git } from '../git/git-test-fixture';
import { desksPerTest, policyAllowing, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();

async function completed(d: Desk, id: string, prompt: string) {
  await d.api('POST', '/', { id, prompt });
  await d.waitForStatus(id, 'completed');
  return (await d.api('GET', `/tasks/${id}`)).json;
}

describe('review', () => {
  it('shows what a task changed, file by file, against the commit it started from', async () => {
    // The agent asks before deleting; this test is about the diff, so the policy lets it without a person.
    const d = await openDesk({ files: { 'README.md': '# Fixture\n', 'old.txt': 'bye\n' }, policy: policyAllowing('delete') });
    await completed(d, 'diffed', 'write notes.txt one\nappend README.md more\ndelete old.txt');
    const diff = (await d.api('GET', '/api/tasks/diffed/diff')).json;
    const byPath = Object.fromEntries(diff.files.map((f: { path: string }) => [f.path, f]));
    expect(byPath['notes.txt']).toMatchObject({ status: 'added', additions: 1, deletions: 0, newText: 'one\n', binary: false });
    expect(byPath['README.md']).toMatchObject({ status: 'modified', oldText: '# Fixture\n', newText: '# Fixture\nmore\n' });
    expect(byPath['old.txt']).toMatchObject({ status: 'deleted', oldText: 'bye\n' });
    expect(byPath['old.txt'].newText).toBeUndefined();
  });

  it('approval merges the task into the base branch, updating a clean checkout of it', async () => {
    const d = await openDesk();
    const task = await completed(d, 'good', 'Add the guide\nwrite guide.txt read me');
    const approved = await d.api('POST', '/tasks/good/approve');
    expect(approved.status, approved.text).toBe(200);
    expect(approved.json).toMatchObject({ review: 'approved', status: 'completed' });
    git(d.repo, 'merge-base', '--is-ancestor', task.commit, 'main');
    expect(readFileSync(join(d.repo, 'guide.txt'), 'utf8')).toBe('read me\n');
    expect(git(d.repo, 'log', '-1', '--format=%s', 'main')).toBe('Merge task good: Add the guide');
    expect((await d.api('POST', '/tasks/good/approve')).status).toBe(409);
  });

  it('approval refuses to merge into a checkout with uncommitted changes, and leaves them alone', async () => {
    const d = await openDesk();
    await completed(d, 'blocked', 'write other.txt x');
    writeFileSync(join(d.repo, 'README.md'), 'my unsaved work\n');
    const refused = await d.api('POST', '/tasks/blocked/approve');
    expect(refused.status).toBe(409);
    expect(refused.json.message).toMatch(/uncommitted changes/);
    expect(readFileSync(join(d.repo, 'README.md'), 'utf8')).toBe('my unsaved work\n');
    expect((await d.api('GET', '/tasks/blocked')).json.review).toBe('pending');
  });

  it('approval moves the base branch without touching the person\'s checkout of another branch', async () => {
    const d = await openDesk();
    const task = await completed(d, 'elsewhere', 'write away.txt x');
    git(d.repo, 'checkout', '-q', '-b', 'my-feature');
    expect((await d.api('POST', '/tasks/elsewhere/approve')).status).toBe(200);
    git(d.repo, 'merge-base', '--is-ancestor', task.commit, 'main');
    expect(git(d.repo, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('my-feature');
    expect(git(d.repo, 'status', '--porcelain')).toBe('');
  });

  it('rejection discards the branch but keeps its work under an archive ref', async () => {
    const d = await openDesk();
    const task = await completed(d, 'bad', 'write bad.txt nope');
    const rejected = await d.api('POST', '/tasks/bad/reject');
    expect(rejected.json).toMatchObject({ review: 'rejected' });
    expect(() => git(d.repo, 'rev-parse', '--verify', '--quiet', task.branch)).toThrow();
    const archived = git(d.repo, 'for-each-ref', '--format=%(objectname)', 'refs/desk/archive/');
    expect(archived.split('\n')).toContain(task.commit);
    expect(git(d.repo, 'rev-parse', 'main')).not.toBe(task.commit);
  });

  it('re-runs a task with the same submission', async () => {
    const d = await openDesk();
    const first = await completed(d, 'again', 'write again.txt x');
    expect((await d.api('POST', '/tasks/again/rerun')).status).toBe(202);
    await d.waitForStatus('again', 'completed');
    const second = (await d.api('GET', '/tasks/again')).json;
    expect(second.attempt).toBe(first.attempt + 1);
    // The run made its commit anew on its fresh branch. Its id may equal the first run's: the same tree, parent and
    // message within the same second make the same commit.
    expect(git(d.repo, 'rev-parse', second.branch)).toBe(second.commit);
    expect(git(d.repo, 'show', `${second.commit}:again.txt`)).toBe('x');
    const said = (await d.api('GET', '/api/tasks/again/events')).text;
    // The second run's own activity says it committed.
    expect(said).toMatch(/Committed [0-9a-f]{12}/);
  });
});

describe('dependency links', () => {
  it('are set, added and removed while a task waits, and a cycle is refused by name', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'a', prompt: 'say a', dependencies: ['gate'] });
    await d.api('POST', '/', { id: 'b', prompt: 'say b', dependencies: ['gate'] });
    expect((await d.api('POST', '/tasks/a/dependencies', { id: 'b' })).json.dependencies).toEqual(['gate', 'b']);
    const cycle = await d.api('POST', '/tasks/b/dependencies', { id: 'a' });
    expect(cycle.status).toBe(409);
    expect(cycle.json.message).toContain('b → a → b');
    expect((await d.api('DELETE', '/tasks/a/dependencies/b')).json.dependencies).toEqual(['gate']);
    expect((await d.api('PUT', '/tasks/a/dependencies', { dependencies: [] })).json.dependencies).toEqual([]);
    await d.waitForStatus('a', 'completed');
    expect((await d.api('PUT', '/tasks/a/dependencies', { dependencies: ['b'] })).status).toBe(409);
  });
});

describe('settings', () => {
  it('shows the desk\'s settings and changes concurrency and the default agent', async () => {
    const d = await openDesk();
    expect((await d.api('GET', '/api/settings')).json).toMatchObject({ serverName: 'Test desk', baseBranch: 'main', defaultAgent: 'scripted', concurrency: 2 });
    expect((await d.api('PUT', '/api/settings', { concurrency: 3 })).json.concurrency).toBe(3);
    expect((await d.api('PUT', '/api/settings', { defaultAgent: 'nobody' })).status).toBe(400);
    expect((await d.api('PUT', '/api/settings', { token: 'x' })).status).toBe(400);
  });

  it('lists tasks with the seq to follow the events socket from', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'x', prompt: 'say x', dependencies: ['never'] });
    const listed = (await d.api('GET', '/api/tasks')).json;
    expect(listed.tasks.map((t: { id: string }) => t.id)).toEqual(['x']);
    expect(listed.lastSeq).toBeGreaterThan(0);
  });
});

describe('the served board', () => {
  it('is public at /ui/ with a strict policy, confined to its folder, and where a browser visiting / is sent', async () => {
    const root = mkdtempSync(join(tmpdir(), 'desk-ui-'));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Board</title>');
    writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
    const d = await openDesk({ uiDir: root });
    const page = await d.raw('GET', '/ui/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>Board</title>');
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect((await d.raw('GET', '/ui/assets/app.js')).headers['content-type']).toMatch(/javascript/);
    expect((await d.raw('GET', '/ui/..%2f..%2fdata%2ftoken')).status).toBe(404);
    expect((await d.raw('GET', '/ui/', { headers: { host: 'evil.example' } })).status).toBe(403);
    const visit = await d.raw('GET', '/', { headers: { accept: 'text/html' } });
    expect(visit.status).toBe(302);
    expect(visit.headers.location).toBe('/ui/');
    expect((await d.raw('GET', '/', { headers: { accept: 'application/json' } })).status).toBe(401);
  });
});
