// Where no sandbox exists: the desk says so on every task and in Settings, and a policy that requires one refuses to start agents.
import { describe, expect, it } from 'vitest';
import type { SandboxStatus } from '../../../shared/sandbox';
import { desksPerTest, taskEvents } from '../test-support/desk-harness';

const NONE: SandboxStatus = { kind: 'none', available: false, reason: 'bubblewrap (bwrap) is not installed.', fix: 'Install it: sudo apt-get install bubblewrap' };

describe('a desk without a sandbox', () => {
  const openDesk = desksPerTest();

  it('runs agents unsandboxed by default, and says so on the task, in its log and in Settings', async () => {
    const desk = await openDesk({ sandbox: NONE });
    await desk.api('POST', '/', { id: 'plain', prompt: 'write a.txt hi' });
    await desk.waitForStatus('plain', 'completed');
    expect((await desk.api('GET', '/')).json.tasks[0]).toMatchObject({ id: 'plain', unsandboxed: true });
    expect((await desk.api('GET', '/api/settings')).json.sandbox).toMatchObject({ available: false, fix: NONE.fix });
    const logs = (await taskEvents(desk, 'plain')).flatMap((e) => (e.type === 'log' ? [e.text] : []));
    expect(logs).toContainEqual(expect.stringContaining('Unsandboxed: bubblewrap (bwrap) is not installed.'));
  });

  it('refuses to start an agent when the policy requires the sandbox, saying how to get one', async () => {
    const desk = await openDesk({ sandbox: NONE, policy: { version: 1, defaults: { sandbox: 'required' } } });
    await desk.api('POST', '/', { id: 'strict', prompt: 'write a.txt hi' });
    await desk.waitForStatus('strict', 'error');
    const detail = (await desk.api('GET', '/tasks/strict')).json;
    expect(detail.errorMessage).toMatch(/requires a sandbox.*not installed.*apt-get install bubblewrap/);
    expect(detail.agentPid).toBeUndefined();
  });
});
