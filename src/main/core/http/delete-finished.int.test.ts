// DELETE on a task whose run is over: nothing to cancel, so 409 saying what to do instead, and the task is left as it was.
import { describe, expect, it } from 'vitest';
import { deskPerFile, type Desk } from '../test-support/desk-harness';

const currentDesk = deskPerFile();

async function finished(d: Desk, id: string, prompt: string, status: 'completed' | 'error' | 'cancelled' = 'completed') {
  await d.api('POST', '/', { id, prompt });
  await d.waitForStatus(id, status);
}

describe('DELETE on a finished task', () => {
  it('answers 409 through every DELETE form for a task in review, naming reject and archive', async () => {
    const d = currentDesk();
    await finished(d, 'review-me', 'write r.txt 1');
    for (const [method, path, body] of [['DELETE', '/review-me', undefined], ['DELETE', '/tasks/review-me', undefined], ['DELETE', '/', { id: 'review-me' }]] as const) {
      const answer = await d.api(method, path, body);
      expect(answer.status, path).toBe(409);
      expect(answer.json).toMatchObject({ error: 'conflict', code: 'task_finished' });
      expect(answer.json.message).toContain('POST /tasks/review-me/reject');
      expect(answer.json.message).toContain('POST /tasks/review-me/archive');
    }
    expect((await d.api('GET', '/tasks/review-me')).json).toMatchObject({ status: 'completed', review: 'pending' });
  });

  it('says an approved task is merged and can only be archived', async () => {
    const d = currentDesk();
    await finished(d, 'merged', 'write m.txt 1');
    expect((await d.api('POST', '/tasks/merged/approve')).status).toBe(200);
    const answer = await d.api('DELETE', '/tasks/merged');
    expect(answer.status).toBe(409);
    expect(answer.json.message).toMatch(/approved and merged .* archive it \(POST \/tasks\/merged\/archive\)/);
  });

  it('says a rejected task can only be archived, and a failed one re-run or archived', async () => {
    const d = currentDesk();
    await finished(d, 'refused', 'write n.txt 1');
    await d.api('POST', '/tasks/refused/reject');
    expect((await d.api('DELETE', '/refused')).json.message).toMatch(/was rejected.*archive/);
    await finished(d, 'broken', 'fail on purpose', 'error');
    const failed = await d.api('DELETE', '/broken');
    expect(failed.status).toBe(409);
    expect(failed.json.message).toMatch(/ended in error.*POST \/tasks\/broken\/rerun.*archive/);
  });

  it('still cancels a task that has not finished, and answers 200 again for one already cancelled', async () => {
    const d = currentDesk();
    await d.api('POST', '/', { id: 'waiting', prompt: 'wait', dependencies: ['never'] });
    expect((await d.api('DELETE', '/tasks/waiting')).json).toMatchObject({ status: 'cancelled' });
    const again = await d.api('DELETE', '/tasks/waiting');
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ status: 'cancelled' });
  });
});
