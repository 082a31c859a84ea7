// Settings' Test: start the agent, `initialize`, `session/new` in an empty temp dir, and let it go. Says who the agent
// is, whether it is ready, or which login it wants. Nothing is prompted, so no model is called and nothing is changed.
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentTest } from '../../../shared/agents';
import { isDeskError } from '../../../shared/desk-error';
import { INVALID_PARAMS, JsonRpcError, PeerClosedError } from '../../../shared/json-rpc-peer';
import { isAuthRequired, loginHelp, offeredMethods } from './agent-auth';
import { agentChannel } from './agent-channel';
import { agentEnvironment } from './agent-environment';
import { spawnAgent } from './agent-process';
import type { AgentRegistry } from './agent-registry';
import { agentImplementation, type ClientHandlers } from './agent-session';
import { AD_HOC_AGENT_ID } from './agents-config';
import { connectAgent } from './connect-agent';
import { DeskError } from '../../../shared/desk-error';

/** How long the handshake may take; real agents answer in a few seconds, even without network. */
const TEST_LIMIT_MS = 30_000;

const refused = () => Promise.reject(new JsonRpcError(INVALID_PARAMS, 'The desk is only testing the handshake.'));
/** A test session asks nothing of the desk; should the agent ask anyway, it is refused. */
const REFUSING: ClientHandlers = {
  requestPermission: async () => ({ outcome: 'cancelled' }),
  elicit: async () => ({ action: 'cancel' }),
  readTextFile: refused,
  writeTextFile: refused,
  terminals: {
    create: refused,
    output: () => { throw new JsonRpcError(INVALID_PARAMS, 'No terminal.'); },
    waitForExit: refused,
    kill: () => {},
    release: () => {},
  },
};

export function createAgentTests(deps: { agents: AgentRegistry; dataDir: string; clientVersion: string; now(): Date }): { test(agentId: string): Promise<AgentTest> } {
  return {
    async test(agentId) {
      const spec = deps.agents.get(agentId);
      if (!spec) throw new DeskError('not_found', 'unknown_agent', `No agent "${agentId}".`);
      const started = Date.now();
      const at = deps.now().toISOString();
      const dir = await mkdtemp(join(deps.dataDir, 'agent-test-'));
      const result = (fields: Omit<AgentTest, 'agentId' | 'durationMs' | 'at'>): AgentTest => ({ agentId, ...fields, durationMs: Date.now() - started, at });
      let agent: Awaited<ReturnType<typeof spawnAgent>> | undefined;
      let implementation: AgentTest['implementation'];
      try {
        agent = await spawnAgent({ command: spec.command, args: spec.args, cwd: dir, env: agentEnvironment(process.env, spec) });
        const running = agent;
        const channel = agentChannel(running.child.stdout, running.child.stdin);
        void running.exited.then((exit) => channel.close(new Error(`The agent exited (${exit.signal ?? `code ${exit.code}`}) during the handshake. ${running.recentLog()}`.trim())));
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`The agent did not finish initialize and session/new within ${TEST_LIMIT_MS / 1000} s.`)), TEST_LIMIT_MS);
        });
        const session = await Promise.race([
          connectAgent(channel, { dialect: spec.dialect, cwd: dir, clientVersion: deps.clientVersion, ...(spec.authMethod !== undefined && { authMethod: spec.authMethod }) }, { onUpdate: () => {}, handlers: REFUSING }),
          timeout,
        ]).finally(() => clearTimeout(timer));
        implementation = session.features.agent;
        const who = implementation ? `${implementation.title ?? implementation.name} ${implementation.version}` : spec.name;
        return result({ outcome: 'ready', ...(implementation && { implementation }), protocolVersion: session.dialect === 'kandev' ? '1.0' : 1, message: `${who} started a session.` });
      } catch (error) {
        if (isDeskError(error, 'agent_login_required') || isAuthRequired(error)) {
          const details = isDeskError(error) ? error.details : undefined;
          implementation ??= agentImplementation(details?.agent).agent;
          const login = loginHelp(
            { id: spec.id, name: spec.name, envAllowlist: spec.envAllowlist, source: spec.id === AD_HOC_AGENT_ID ? 'ad-hoc' : 'config' },
            offeredMethods(details?.methods),
            typeof details?.agentMessage === 'string' ? details.agentMessage : error instanceof Error ? error.message : String(error),
          );
          return result({ outcome: 'needs-login', ...(implementation && { implementation }), login, message: login.message });
        }
        if (error instanceof PeerClosedError && agent) {
          // Output closes a moment before the exit is reported; the exit code and the agent's log say more.
          const running = agent;
          const exit = await Promise.race([running.exited, new Promise<undefined>((resolve) => { setTimeout(resolve, 1000); })]);
          if (exit) return result({ outcome: 'failed', message: `The agent exited (${exit.signal ?? `code ${exit.code}`}) during the handshake. ${running.recentLog()}`.trim() });
        }
        return result({ outcome: 'failed', message: error instanceof Error ? error.message : String(error) });
      } finally {
        await agent?.stop();
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
