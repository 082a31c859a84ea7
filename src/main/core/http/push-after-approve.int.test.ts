// The `pushAfterApprove` setting: an approval pushes the base branch (or the task's branch) to a configured remote; a
// refusal is shown on the task and never forced.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, git } from '../git/git-test-fixture';
import { desksPerTest, taskEvents, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();

/** A desk whose repository has `origin`, a bare repository holding main. */
async function deskWithRemote() {
  const d = await openDesk();
  const bare = join(d.root, 'remote.git');
  git(d.root, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  git(d.repo, 'remote', 'add', 'origin', bare);
  git(d.repo, 'push', '--quiet', 'origin', 'main');
  return { d, bare };
}

async function approved(d: Desk, id: string, prompt: string) {
  await d.api('POST', '/', { id, prompt });
  await d.waitForStatus(id, 'completed');
  const answer = await d.api('POST', `/tasks/${id}/approve`);
  expect(answer.status, answer.text).toBe(200);
  return answer.json;
}

describe('push after approve', () => {
  it('is off by default and set with PUT /api/settings', async () => {
    const { d } = await deskWithRemote();
    expect((await d.api('GET', '/api/settings')).json.pushAfterApprove).toBeNull();
    const set = await d.api('PUT', '/api/settings', { pushAfterApprove: { remote: 'origin', branch: 'base' } });
    expect(set.json.pushAfterApprove).toEqual({ remote: 'origin', branch: 'base' });
    expect((await d.api('PUT', '/api/settings', { pushAfterApprove: { remote: '--upload-pack=x', branch: 'base' } })).status).toBe(400);
    expect((await d.api('PUT', '/api/settings', { pushAfterApprove: null })).json.pushAfterApprove).toBeNull();
  });

  it('pushes the base branch to the remote after an approval and says so on the task', async () => {
    const { d, bare } = await deskWithRemote();
    await d.api('PUT', '/api/settings', { pushAfterApprove: { remote: 'origin', branch: 'base' } });
    const task = await approved(d, 'shipped', 'write shipped.txt yes');
    expect(task.push, task.push?.message).toMatchObject({ remote: 'origin', branch: 'main', ok: true });
    expect(git(bare, 'rev-parse', 'main')).toBe(git(d.repo, 'rev-parse', 'main'));
    expect((await d.api('GET', '/tasks/shipped')).json.push.message).toBe('Pushed main to origin.');
  });

  it('pushes the task branch instead when asked', async () => {
    const { d, bare } = await deskWithRemote();
    await d.api('PUT', '/api/settings', { pushAfterApprove: { remote: 'origin', branch: 'task' } });
    const task = await approved(d, 'own-branch', 'write own.txt yes');
    const { branch, commit } = (await d.api('GET', '/tasks/own-branch')).json;
    expect(task.push).toMatchObject({ branch, ok: true });
    expect(git(bare, 'rev-parse', `refs/heads/${branch}`)).toBe(commit);
  });

  it('reports a rejected push on the task and in its events, and never forces the remote', async () => {
    const { d, bare } = await deskWithRemote();
    // Someone else pushes to the remote first: the desk's main no longer fast-forwards it.
    const elsewhere = mkdtempSync(join(d.root, 'elsewhere-'));
    git(elsewhere, 'clone', '--quiet', bare, 'clone');
    commitFiles(join(elsewhere, 'clone'), { 'theirs.txt': 'theirs\n' }, 'Their commit');
    git(join(elsewhere, 'clone'), 'push', '--quiet', 'origin', 'main');
    const remoteMain = git(bare, 'rev-parse', 'main');

    await d.api('PUT', '/api/settings', { pushAfterApprove: { remote: 'origin', branch: 'base' } });
    const task = await approved(d, 'refused', 'write mine.txt mine');
    expect(task.review).toBe('approved');
    expect(task.push).toMatchObject({ remote: 'origin', branch: 'main', ok: false });
    expect(task.push.message).toMatch(/rejected: fetch first|rejected: non-fast-forward/);
    expect(task.push.message).toContain('nothing was forced');
    expect(git(bare, 'rev-parse', 'main')).toBe(remoteMain);
    const logged = (await taskEvents(d, 'refused')).filter((e) => e.type === 'log' && e.level === 'error');
    expect(logged.map((e) => e.type === 'log' && e.text)).toContain(task.push.message);
  });

  it('reports a remote that does not exist without failing the approval', async () => {
    const { d } = await deskWithRemote();
    await d.api('PUT', '/api/settings', { pushAfterApprove: { remote: 'nowhere', branch: 'base' } });
    const task = await approved(d, 'lost', 'write lost.txt x');
    expect(task).toMatchObject({ review: 'approved', push: { ok: false, remote: 'nowhere' } });
    expect(task.push.message).toMatch(/^Push of main to nowhere failed: /);
  });
});
