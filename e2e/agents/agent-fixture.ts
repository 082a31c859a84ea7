// A real agent process in a temp git repo with an empty home, talked to over JSON-RPC, and removed afterwards.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentEnvironment } from '../../src/main/core/agents/agent-environment';
import { spawnAgent, type AgentProcess } from '../../src/main/core/agents/agent-process';
import { agentChannel } from '../../src/main/core/agents/agent-channel';
import { createJsonRpcPeer, PeerClosedError, type JsonRpcPeer } from '../../src/shared/json-rpc-peer';
import { makeRepo } from '../../src/main/core/test-support/desk-harness';
import { isolatedAgentSpec, type RealAgent } from './real-agents';

export interface AgentFixture {
  root: string;
  home: string;
  repo: string;
  /** Starts the agent in the repo; the peer fails every pending request when the agent exits. */
  start(agent: RealAgent): Promise<{ running: AgentProcess; peer: JsonRpcPeer }>;
  /** Stops the agent's whole process tree and removes the temp dirs. */
  dispose(): Promise<void>;
}

export function createAgentFixture(): AgentFixture {
  const root = mkdtempSync(join(tmpdir(), 'desk-agents-'));
  const home = join(root, 'home');
  mkdirSync(home);
  const repo = makeRepo(root);
  const started: AgentProcess[] = [];
  return {
    root, home, repo,
    async start(agent) {
      const spec = isolatedAgentSpec(agent, home);
      const agentProcess = await spawnAgent({ command: spec.command, args: spec.args, cwd: repo, env: agentEnvironment(process.env, spec) });
      started.push(agentProcess);
      const peer = createJsonRpcPeer(agentChannel(agentProcess.child.stdout, agentProcess.child.stdin));
      void agentProcess.exited.then((exit) => peer.close(new PeerClosedError(`${agent.id} exited (${exit.signal ?? exit.code}): ${agentProcess.recentLog()}`)));
      return { running: agentProcess, peer };
    },
    async dispose() {
      await Promise.all(started.map((agentProcess) => agentProcess.stop()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Rejects with a message naming the request if the agent does not answer in time, so a hang fails fast and says where. */
export function answerWithin<T>(promise: Promise<T>, ms: number, what: string, log: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer to ${what} within ${ms} ms; the agent's stderr ends with:\n${log()}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
