// What a finished task changed, in all, as its card in Review shows it: counted when its turn commits.
import { describe, expect, it } from 'vitest';
import { desksPerTest } from '../test-support/desk-harness';

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the follow-up did not commit within 15 s');
}

const openDesk = desksPerTest();

describe('the totals of what a task changed', () => {
  it('lists the files and the lines added and removed with the task, as the Changes tab counts them', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'counted', prompt: 'Add two files\nwrite a.txt one\nwrite b.txt two' });
    expect(await d.waitForStatus('counted', ['completed', 'error'])).toBe('completed');
    const listed = (await d.api('GET', '/')).json.tasks.find((task: { id: string }) => task.id === 'counted');
    expect(listed.changes).toEqual({ files: 2, additions: 2, deletions: 0 });
    const diff = (await d.api('GET', '/api/tasks/counted/diff')).json;
    expect(diff.files.length).toBe(listed.changes.files);
  });

  it('counts again after a follow-up turn, from where the task started', async () => {
    const d = await openDesk();
    await d.api('POST', '/', { id: 'again', prompt: 'Add a file\nwrite a.txt one' });
    await d.waitForStatus('again', ['completed', 'error']);
    const firstCommit = (await d.api('GET', '/tasks/again')).json.commit;
    expect((await d.api('POST', '/tasks/again/prompt', { prompt: 'Add another\nwrite b.txt two\nappend a.txt more' })).status).toBe(202);
    await waitFor(async () => (await d.api('GET', '/tasks/again')).json.commit !== firstCommit);
    expect((await d.api('GET', '/tasks/again')).json.changes).toEqual({ files: 2, additions: 3, deletions: 0 });
  });
});
