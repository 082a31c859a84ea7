// Stopping a sandboxed agent through its PID namespace, with real bubblewrap: nothing it started outlives the stop.
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { bwrapArguments } from '../sandbox/bwrap-arguments';
import { processesWith, sandboxForTests } from '../sandbox/test-support/sandbox-for-tests';
import { spawnAgent } from './agent-process';

const { status, skip } = await sandboxForTests();

/** An "agent" in a bare sandbox that double-forks a process into a session of its own, deaf to TERM and HUP, then waits. */
async function agentLeaving(marker: string, then: string) {
  // The survivor says it runs; the agent goes on at once. The marker is split in the script, so that only the
  // survivor's command line holds it whole.
  const script = `(setsid sh -c 'trap "" TERM HUP; echo ready; while :; do sleep 1; done' "${marker.slice(0, 4)}""${marker.slice(4)}" &); ${then}`;
  const args = bwrapArguments({ bwrap: status.path ?? 'bwrap', cwd: '/', network: 'none', newSession: true, mounts: [] }, 'sh', ['-c', script]);
  const agent = await spawnAgent({ command: status.path ?? 'bwrap', args, cwd: '/', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, pidNamespace: true });
  await once(agent.stdout, 'data');
  expect(processesWith(marker).length).toBeGreaterThan(0);
  return agent;
}

describe.skipIf(skip)(`stopping a sandboxed agent${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('leaves nothing running once stop resolves, not even a double-forked process that ignores TERM and HUP', async () => {
    const marker = `desk-ns-survivor-${process.pid}-busy`;
    const agent = await agentLeaving(marker, 'sleep 600');
    await agent.stop();
    expect(processesWith(marker)).toEqual([]);
  });

  it('leaves nothing running when the agent itself ends at the close of its input but its survivor would not', async () => {
    const marker = `desk-ns-survivor-${process.pid}-eof`;
    const agent = await agentLeaving(marker, 'cat > /dev/null');
    await agent.stop();
    expect(processesWith(marker)).toEqual([]);
  });

  it('leaves nothing running when stopped after the agent has exited by itself', async () => {
    const marker = `desk-ns-survivor-${process.pid}-exited`;
    const agent = await agentLeaving(marker, 'cat > /dev/null');
    agent.stdin.end();
    await agent.exited;
    await agent.stop();
    // The outer bubblewrap returns the agent's exit while its init is still ending the namespace (the kernel kills what
    // is left as the init dies, with the outer one): gone within moments, never left running.
    for (let waited = 0; processesWith(marker).length > 0 && waited < 1_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(processesWith(marker)).toEqual([]);
  });
});
