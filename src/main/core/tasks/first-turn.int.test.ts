// A submission stores only the task; its first turn is its prompt until it starts. What clients see of it: the AA
// detail and the Agent Protocol's steps before the run, a cancelled queued task, and a resubmission after a run.
// Real SQLite, git and scripted agent.
import { describe, expect, it } from 'vitest';
import { desksPerTest, taskEvents } from '../test-support/desk-harness';

const openDesk = desksPerTest();
const turnsOf = async (desk: Awaited<ReturnType<typeof openDesk>>, id: string) =>
  ((await desk.api('GET', `/tasks/${id}`)).json.turns as { turn: number; prompt: string; status: string }[]).map(({ turn, prompt, status }) => ({ turn, prompt, status }));
const promptsOf = async (desk: Awaited<ReturnType<typeof openDesk>>, id: string) =>
  (await taskEvents(desk, id)).flatMap((event) => (event.type === 'prompt' ? [`${event.turn}: ${event.text}`] : []));

describe('the first turn of a submitted task', () => {
  it('is shown pending while the task waits, as a step to Agent Protocol clients, and is recorded as a prompt once it runs', async () => {
    const desk = await openDesk();
    expect((await desk.api('POST', '/', { id: 'later', prompt: 'say Done later', dependencies: ['first'] })).status).toBe(202);

    expect(await turnsOf(desk, 'later')).toEqual([{ turn: 1, prompt: 'say Done later', status: 'pending' }]);
    const steps = (await desk.api('GET', '/ap/v1/agent/tasks/later/steps')).json.steps as { input: string; status: string }[];
    expect(steps.map(({ input, status }) => ({ input, status }))).toEqual([{ input: 'say Done later', status: 'created' }]);
    expect(await promptsOf(desk, 'later')).toEqual([]);

    await desk.api('POST', '/', { id: 'first', prompt: 'say First' });
    await desk.waitForStatus('later', 'completed');
    expect(await turnsOf(desk, 'later')).toEqual([{ turn: 1, prompt: 'say Done later', status: 'completed' }]);
    expect(await promptsOf(desk, 'later')).toEqual(['1: say Done later']);
  });

  it('is cancelled with a task cancelled before it started', async () => {
    const desk = await openDesk();
    await desk.api('POST', '/', { id: 'never', prompt: 'say Never', dependencies: ['missing'] });
    expect((await desk.api('DELETE', '/tasks/never')).status).toBe(200);
    expect(await turnsOf(desk, 'never')).toEqual([{ turn: 1, prompt: 'say Never', status: 'cancelled' }]);
  });

  it('replaces every turn of an earlier submission with the same id', async () => {
    const desk = await openDesk();
    await desk.api('POST', '/', { id: 'again', prompt: 'say One' });
    await desk.waitForStatus('again', 'completed');
    await desk.api('POST', '/tasks/again/prompt', { prompt: 'say Two' });
    await desk.waitForStatus('again', 'in-progress');
    await desk.waitForStatus('again', 'completed');
    expect(await turnsOf(desk, 'again')).toHaveLength(2);

    await desk.api('POST', '/', { id: 'again', prompt: 'say Three', dependencies: ['missing'] });
    expect(await turnsOf(desk, 'again')).toEqual([{ turn: 1, prompt: 'say Three', status: 'pending' }]);
  });
});
