// Approval-gated dependencies (`"after": "approved"`): a dependent starts only once every dependency is approved,
// not merely completed; a rejected dependency holds it with the reason shown in GET / and the task detail.
import { describe, expect, it } from 'vitest';
import { desksPerTest, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();

const summary = async (desk: Desk, id: string) => ((await desk.api('GET', '/')).json.tasks as { id: string }[]).find((t) => t.id === id);

describe('a task that waits for its dependencies to be approved', () => {
  it('waits while the dependency is in review and starts once it is approved', async () => {
    const desk = await openDesk();
    await desk.api('POST', '/', { id: 'a', prompt: 'write a.txt from a' });
    const submitted = await desk.api('POST', '/', { id: 'b', prompt: 'read a.txt', dependencies: ['a'], after: 'approved' });
    expect(submitted.json).toMatchObject({ id: 'b', status: 'queued', after: 'approved' });
    await desk.waitForStatus('a', 'completed');
    // Completed is not enough: b stays queued, waiting for a person.
    const waiting = (await desk.api('GET', '/tasks/b')).json;
    expect(waiting).toMatchObject({ status: 'queued', unmetDependencies: [{ id: 'a', status: 'completed', review: 'pending', blocking: false }] });
    expect(waiting.blockedBy).toBeUndefined();

    expect((await desk.api('POST', '/tasks/a/approve')).status).toBe(200);
    await desk.waitForStatus('b', 'completed');
  });

  it('is held with a reason, in GET / and its detail, when the dependency is rejected', async () => {
    const desk = await openDesk();
    await desk.api('POST', '/', { id: 'a', prompt: 'write a.txt from a' });
    await desk.api('POST', '/', { id: 'gated', prompt: 'say gated', dependencies: ['a'], after: 'approved' });
    await desk.waitForStatus('a', 'completed');
    expect((await desk.api('POST', '/tasks/a/reject')).status).toBe(200);
    const reason = 'Waiting for a (rejected): resubmit it or remove the dependency.';
    expect((await desk.api('GET', '/tasks/gated')).json).toMatchObject({ status: 'queued', blockedBy: reason });
    expect(await summary(desk, 'gated')).toMatchObject({ status: 'queued', blockedBy: reason });
  });

  it('follows the desk\'s setting when the submission does not say', async () => {
    const desk = await openDesk();
    expect((await desk.api('PUT', '/api/settings', { dependenciesAfter: 'approved' })).status).toBe(200);
    expect((await desk.api('GET', '/api/settings')).json.dependenciesAfter).toBe('approved');
    await desk.api('POST', '/', { id: 'a', prompt: 'say a' });
    await desk.api('POST', '/', { id: 'b', prompt: 'say b', dependencies: ['a'] });
    expect(await summary(desk, 'b')).toMatchObject({ after: 'approved' });
    await desk.waitForStatus('a', 'completed');
    expect((await desk.api('GET', '/tasks/b')).json.status).toBe('queued');
  });
});
