// A task given to a real agent through the whole desk ends in `error` with a reason when the agent cannot reach its service.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { destroyDesk, makeRepo, scriptedAgent, startDesk, taskEvents, type Desk } from '../../../src/main/core/test-support/desk-harness';
import { isolatedAgentSpec, OFFLINE_AGENTS } from '../real-agents';

describe.each(OFFLINE_AGENTS)('a task for $id', (agent) => {
  let desk: (Desk & { root: string }) | undefined;
  afterEach(async () => {
    await destroyDesk(desk);
    desk = undefined;
  });

  it(`ends in error with a message, within ${agent.taskLimitMs / 1000} s, when the agent has no credentials or network`, async () => {
    // The agent's empty home sits in the desk's temp dir, so closing the desk removes it too.
    const root = mkdtempSync(join(tmpdir(), 'desk-agents-'));
    const home = join(root, 'home');
    mkdirSync(home);
    desk = await startDesk({
      reuse: { root, repo: makeRepo(root), dataDir: join(root, 'data') },
      agents: [scriptedAgent(), isolatedAgentSpec(agent, home)],
    });

    const submitted = await desk.api('POST', '/', { id: 'hello', prompt: 'say hi', agent: agent.id });
    expect(submitted.status).toBe(202);
    const status = await desk.waitForStatus('hello', ['completed', 'error', 'cancelled'], agent.taskLimitMs);
    const detail = await desk.api('GET', '/tasks/hello');

    expect(status).toBe('error');
    expect(detail.json).toMatchObject({ status: 'error', errorMessage: expect.stringMatching(/\S/) });
    expect(detail.json.agentPid).toBeUndefined();
    // It ran inside the sandbox wherever this machine has one.
    const logs = (await taskEvents(desk, 'hello')).flatMap((event) => (event.type === 'log' ? [event.text] : []));
    expect(logs).toContainEqual(expect.stringMatching(desk.core.sandbox.available ? /^Sandboxed \(.*network limited to/ : /^Unsandboxed/));
  });
});
