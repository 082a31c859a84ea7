// Choosing where a task runs, as a client sees it, on a desk whose Docker host cannot be reached (no daemon needed).
import { describe, expect, it } from 'vitest';
import { desksPerTest } from '../test-support/desk-harness';

const openDesk = desksPerTest();
const unreachableDocker = { docker: { enabled: true, host: 'unix:///nonexistent/docker.sock', image: 'desk-test:none', capacity: 1 } };

describe('runners', () => {
  it('keeps the runner a submission names, shows it on the card, and ends the task in error when Docker cannot be reached', async () => {
    const desk = await openDesk({ runners: unreachableDocker });
    expect((await desk.api('POST', '/', { id: 'boxed', prompt: 'say hi', runner: 'docker' })).status).toBe(202);
    await desk.waitForStatus('boxed', 'error');
    const detail = (await desk.api('GET', '/tasks/boxed')).json;
    expect(detail.runner).toBe('docker');
    expect(detail.unsandboxed).toBeUndefined();
    expect(detail.errorMessage).toMatch(/Docker at unix:\/\/\/nonexistent\/docker.sock cannot be reached/);
    const listed = (await desk.api('GET', '/')).json.tasks.find((task: { id: string }) => task.id === 'boxed');
    expect(listed.runner).toBe('docker');
  });

  it('runs a task that names no runner on this machine, as before', async () => {
    const desk = await openDesk({ runners: unreachableDocker });
    await desk.api('POST', '/', { id: 'plain', prompt: 'write a.txt hello' });
    await desk.waitForStatus('plain', 'completed');
    expect((await desk.api('GET', '/tasks/plain')).json.runner).toBeUndefined();
  });

  it('refuses a runner that is not set up here, naming the ones that are', async () => {
    const desk = await openDesk();
    const answer = await desk.api('POST', '/', { id: 'nowhere', prompt: 'say hi', runner: 'docker' });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: 'unknown_runner' });
    expect(answer.json.message).toContain('it has local');
  });

  it("lists each runner's state, capacity and load for Settings", async () => {
    const desk = await openDesk({ runners: unreachableDocker, concurrency: 3 });
    const { runners } = (await desk.api('GET', '/api/runners')).json;
    expect(runners).toEqual([
      expect.objectContaining({ kind: 'local', available: true, capacity: 3, running: 0, isDefault: true }),
      expect.objectContaining({ kind: 'docker', available: false, capacity: 1, running: 0, isDefault: false }),
    ]);
    expect(runners[1].detail).toMatch(/cannot be reached/);
  });
});
