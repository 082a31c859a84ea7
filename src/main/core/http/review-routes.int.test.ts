// Review at scale as a client sees it: archiving finished tasks (one, or all settled ones), and per-file viewed marks
// of a diff; both kept in the database across a restart.
import { describe, expect, it } from 'vitest';
import { desksPerTest, policyAllowing, startDesk, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();

async function finished(d: Desk, id: string, prompt: string, status: 'completed' | 'error' = 'completed') {
  expect((await d.api('POST', '/', { id, prompt })).status).toBe(202);
  await d.waitForStatus(id, status);
}

const idsOf = (page: { tasks: { id: string }[] }) => page.tasks.map((t) => t.id);

describe('archive', () => {
  it('hides an archived task from the board list, lists it under archived, and keeps it in GET / with archived: true', async () => {
    const d = await openDesk();
    await finished(d, 'kept', 'write kept.txt x');
    await finished(d, 'shelved', 'write shelved.txt y');

    const archived = await d.api('POST', '/tasks/shelved/archive');
    expect(archived.status, archived.text).toBe(200);
    expect(archived.json).toMatchObject({ id: 'shelved', status: 'completed', archived: true });

    expect(idsOf((await d.api('GET', '/api/tasks?archived=false')).json)).toEqual(['kept']);
    expect(idsOf((await d.api('GET', '/api/tasks?archived=true')).json)).toEqual(['shelved']);
    const all = (await d.api('GET', '/')).json;
    expect(Object.keys(all).sort()).toEqual(['serverName', 'tasks']);
    expect(all.tasks.find((t: { id: string }) => t.id === 'shelved')).toMatchObject({ status: 'completed', archived: true });
    expect(all.tasks.find((t: { id: string }) => t.id === 'kept').archived).toBeUndefined();
    expect((await d.api('GET', '/tasks/shelved')).json.archived).toBe(true);

    const back = await d.api('POST', '/tasks/shelved/unarchive');
    expect(back.status).toBe(200);
    expect(back.json.archived).toBeUndefined();
    expect(idsOf((await d.api('GET', '/api/tasks?archived=false')).json)).toEqual(['kept', 'shelved']);
  });

  it('refuses to archive a task that has not finished, and answers 404 for an unknown one', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'waiting', prompt: 'write w.txt x', dependencies: ['not-submitted-yet'] });
    const refused = await d.api('POST', '/tasks/waiting/archive');
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe('conflict');
    expect(refused.json.message).toMatch(/only a finished task can be archived/);
    expect((await d.api('POST', '/tasks/nobody/archive')).status).toBe(404);
    expect((await d.api('POST', '/tasks/nobody/unarchive')).status).toBe(404);
  });

  it('brings an archived task back to the board when it runs again', async () => {
    const d = await openDesk();
    await finished(d, 'again', 'write a.txt 1');
    await d.api('POST', '/tasks/again/archive');
    expect((await d.api('POST', '/tasks/again/prompt', { prompt: 'write b.txt 2' })).status).toBe(202);
    await d.waitForStatus('again', 'completed');
    expect((await d.api('GET', '/tasks/again')).json.archived).toBeUndefined();
  });

  it('clear done archives approved, rejected and failed tasks, but not one that waits for review', async () => {
    const d = await openDesk({ policy: policyAllowing('delete') });
    await finished(d, 'merged', 'write m.txt 1');
    await finished(d, 'turned-down', 'write t.txt 1');
    await finished(d, 'to-review', 'write r.txt 1');
    await finished(d, 'broken', 'fail on purpose', 'error');
    expect((await d.api('POST', '/tasks/merged/approve')).status).toBe(200);
    expect((await d.api('POST', '/tasks/turned-down/reject')).status).toBe(200);

    const cleared = await d.api('POST', '/api/tasks/clear-done');
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json.archived.sort()).toEqual(['broken', 'merged', 'turned-down']);
    expect(idsOf((await d.api('GET', '/api/tasks?archived=false')).json)).toEqual(['to-review']);
  });
});

describe('viewed marks', () => {
  it('marks and unmarks files of a task, and answers 404 for an unknown task', async () => {
    const d = await openDesk();
    await finished(d, 'looked', 'write a.txt 1\nwrite b.txt 2');
    expect((await d.api('GET', '/api/tasks/looked/viewed')).json).toEqual({ files: {} });
    expect((await d.api('PUT', '/tasks/looked/viewed', { path: 'a.txt', key: 'k1', viewed: true })).json).toEqual({ files: { 'a.txt': 'k1' } });
    await d.api('PUT', '/tasks/looked/viewed', { path: 'b.txt', key: 'k2', viewed: true });
    expect((await d.api('PUT', '/tasks/looked/viewed', { path: 'a.txt', key: 'k1', viewed: false })).json).toEqual({ files: { 'b.txt': 'k2' } });
    expect((await d.api('PUT', '/tasks/looked/viewed', { path: 'a.txt', viewed: true })).status).toBe(400);
    expect((await d.api('GET', '/api/tasks/nobody/viewed')).status).toBe(404);
  });
});

it('keeps archived tasks and viewed marks across a restart', async () => {
  const first = await openDesk();
  await finished(first, 'old', 'write o.txt 1');
  await first.api('POST', '/tasks/old/archive');
  await first.api('PUT', '/tasks/old/viewed', { path: 'o.txt', key: 'abc', viewed: true });
  await first.close();

  const second = await startDesk({ reuse: { root: first.root, repo: first.repo, dataDir: first.dataDir } });
  try {
    expect((await second.api('GET', '/tasks/old')).json).toMatchObject({ status: 'completed', archived: true });
    expect(idsOf((await second.api('GET', '/api/tasks?archived=true')).json)).toEqual(['old']);
    expect((await second.api('GET', '/api/tasks/old/viewed')).json).toEqual({ files: { 'o.txt': 'abc' } });
  } finally {
    await second.close();
  }
});
