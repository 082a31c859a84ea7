// The desk answers before its task limits are probed (core.ts): a task submitted meanwhile waits for the probe, then
// runs in the real sandbox inside its limits, exactly as one submitted later; the board's settings wait for it too.
import { describe, expect, it } from 'vitest';
import { desksPerTest, scriptedAgent, taskEvents, waitForEvent } from '../../test-support/desk-harness';
import type { Attack, AttackResult } from '../test-support/hostile-agent';
import { hostileAgent, sandboxForTests } from '../test-support/sandbox-for-tests';
import { git } from '../../git/git-test-fixture';
import { startTaskLimits } from './desk-limits';
import { deskFolderName, probeLimits } from './limits-probe';

const { skip: noSandbox } = await sandboxForTests();
const enforcement = await probeLimits({ dataDir: '/nonexistent-probe' });
enforcement.close();
const noLimits = enforcement.status.enforced ? false : `${enforcement.status.reason ?? ''} ${enforcement.status.fix ?? ''}`;
if (noLimits && process.env.DESK_REQUIRE_SANDBOX === '1') throw new Error(`The limits tests must run here (DESK_REQUIRE_SANDBOX=1), but: ${noLimits}`);
const skip = noSandbox || (noLimits ? `limits not enforced here: ${noLimits}` : false);

const LIMITS = { memoryMb: 300, pids: 64 };
const RUN_MS = 60_000;

describe.skipIf(skip)(`a desk whose limits are still being probed${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const openDesk = desksPerTest();

  it('answers, takes a task, and runs it sandboxed inside its limits once the probe answers', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    const desk = await openDesk({
      agents: [scriptedAgent(), hostileAgent()],
      policy: { version: 1, defaults: { capabilities: { execute: 'allow' }, limits: LIMITS } },
      taskLimits: async (dataDir) => {
        await held;
        return startTaskLimits({ dataDir, log: () => {} });
      },
    });

    // Listening, answering and taking work, with the probe held back.
    expect((await desk.api('GET', '/')).status).toBe(200);
    let settingsAnswered = false;
    const settings = desk.api('GET', '/api/settings').then((answer) => { settingsAnswered = true; return answer; });
    // Inside its cgroup namespace the agent's /proc/self/cgroup says `/`: it finds its group by its own pid instead.
    const attacks: Attack[] = [{ exec: 'grep -rlx "$$" /sys/fs/cgroup/pids /sys/fs/cgroup --include=cgroup.procs 2>/dev/null; true' }];
    expect((await desk.api('POST', '/', { id: 'early', prompt: JSON.stringify(attacks), agent: 'hostile' })).status).toBe(202);
    await waitForEvent(desk, 'early', ({ event }) => event.type === 'log' && event.text.startsWith('Preparing a worktree'), RUN_MS);
    expect(settingsAnswered).toBe(false);
    release();

    await desk.waitForStatus('early', ['completed', 'error'], RUN_MS);
    const detail = (await desk.api('GET', '/tasks/early')).json;
    expect(detail.errorMessage).toBeUndefined();
    const logs = (await taskEvents(desk, 'early')).flatMap((event) => (event.type === 'log' ? [event.text] : []));
    expect(logs).toContainEqual(expect.stringMatching(/^Sandboxed \(.*Limits: memory 300 MB \(policy\), 64 processes/));
    const [report] = JSON.parse(git(desk.repo, 'show', `${detail.commit}:attack-report.json`)) as AttackResult[];
    // The agent's own processes sit in the task's group under this desk's folder, in every hierarchy that limits it.
    expect(report?.output).toContain(`${deskFolderName(desk.dataDir)}/t-early-`);

    const answered = await settings;
    expect(answered.status).toBe(200);
    expect(answered.json.sandbox).toMatchObject({ available: true, limits: { enforced: true } });
  }, RUN_MS * 2);
});
