// Logging an agent in the way it asks for (an ACP auth method of type "terminal"): its own command,
// with the method's arguments, in a terminal the person sees and types into.
import type { AgentLogin } from '../../../shared/agents';
import type { TaskEvent } from '../../../shared/events';
import type { AuthMethod, AuthMethodTerminal, InitializeResponse } from '@agentclientprotocol/sdk';
import { isObject } from '../../../shared/is-object';
import { agentChannel } from './agent-channel';
import { agentEnvironment } from './agent-environment';
import { spawnAgent } from './agent-process';
import type { AgentRegistry } from './agent-registry';
import type { AgentSpec } from './agent-spec';
import { ACP_PROTOCOL_VERSION, DESK_CLIENT_CAPABILITIES, exchangeInitialize } from './connect-agent';
import { createTerminalHost, type TerminalHost } from './terminal-host';
import { DeskError } from '../../../shared/desk-error';

/** The agent offers no login the desk can run; the message lists what it does offer. */
const loginUnavailable = (message: string) => new DeskError('conflict', 'login_unavailable', message);
const loginNotFound = (message: string) => new DeskError('not_found', 'unknown_login', message);
const loginRunning = (message: string) => new DeskError('conflict', 'login_running', message);

interface TerminalMethod { id: string; name: string; args: string[]; env: Record<string, string> }

interface RunningLogin { view: Omit<AgentLogin, 'output' | 'exitStatus'>; host: TerminalHost }

/** How long an agent may take to answer initialize while the desk looks up its login methods. */
const HANDSHAKE_LIMIT_MS = 20_000;

export interface AgentLogins {
  start(agentId: string, methodId?: string): Promise<AgentLogin>;
  view(agentId: string): AgentLogin;
  write(agentId: string, data: string): void;
  stop(agentId: string): Promise<void>;
  disposeAll(): Promise<void>;
}

export function createAgentLogins(deps: {
  agents: AgentRegistry;
  /** Logins run here; it is the repository the person already trusts the agent with. */
  cwd: string;
  clientVersion: string;
  record(eventsId: string, event: TaskEvent): void;
}): AgentLogins {
  const logins = new Map<string, RunningLogin>();

  const find = (agentId: string): RunningLogin => {
    const login = logins.get(agentId);
    if (!login) throw loginNotFound(`No login of agent ${agentId} has been started.`);
    return login;
  };
  const show = ({ view, host }: RunningLogin): AgentLogin => {
    const { output, exitStatus } = host.output(view.terminalId);
    return { ...view, output, exitStatus };
  };

  return {
    async start(agentId, methodId) {
      const spec = deps.agents.get(agentId);
      if (!spec) throw loginNotFound(`No agent "${agentId}".`);
      const previous = logins.get(agentId);
      if (previous && previous.host.output(previous.view.terminalId).exitStatus === null) {
        throw loginRunning(`A login of ${agentId} is already running; answer it or stop it first.`);
      }
      await previous?.host.disposeAll();
      const method = pickMethod(await terminalMethodsOf(spec, deps), methodId, agentId);

      const eventsId = `login:${agentId}`;
      const env = agentEnvironment(process.env, spec);
      const host = createTerminalHost({ worktree: deps.cwd, baseEnv: env, record: (event) => deps.record(eventsId, event) });
      const args = [...spec.args, ...method.args];
      const { terminalId } = await host.create({ command: spec.command, args, env: Object.entries(method.env).map(([name, value]) => ({ name, value })) });
      const login: RunningLogin = { view: { agentId, methodId: method.id, methodName: method.name, terminalId, command: spec.command, args, eventsId }, host };
      logins.set(agentId, login);
      return show(login);
    },
    view: (agentId) => show(find(agentId)),
    write(agentId, data) {
      const login = find(agentId);
      login.host.write(login.view.terminalId, data);
    },
    async stop(agentId) {
      const login = find(agentId);
      logins.delete(agentId);
      await login.host.disposeAll();
    },
    async disposeAll() {
      const all = [...logins.values()];
      logins.clear();
      await Promise.all(all.map((login) => login.host.disposeAll()));
    },
  };
}

/** Asks the agent which logins it offers (`initialize`), then lets it go. */
async function terminalMethodsOf(spec: AgentSpec, deps: { cwd: string; clientVersion: string }): Promise<{ terminal: TerminalMethod[]; other: string[] }> {
  const agent = await spawnAgent({ command: spec.command, args: spec.args, cwd: deps.cwd, env: agentEnvironment(process.env, spec) });
  try {
    const channel = agentChannel(agent.child.stdout, agent.child.stdin);
    void agent.exited.then(() => channel.close(loginUnavailable(`The agent ${spec.id} exited before saying how to log in: ${agent.recentLog()}`)));
    const timeout = new Promise<never>((_resolve, reject) => {
      setTimeout(() => reject(loginUnavailable(`The agent ${spec.id} did not answer initialize within ${HANDSHAKE_LIMIT_MS / 1000} s.`)), HANDSHAKE_LIMIT_MS).unref();
    });
    const init = await Promise.race([exchangeInitialize(channel, {
      protocolVersion: ACP_PROTOCOL_VERSION, clientCapabilities: DESK_CLIENT_CAPABILITIES, clientInfo: { name: 'assignment-desk', version: deps.clientVersion },
    }), timeout]);
    // Only the auth methods are read, each field checked, so a Kandev or odd answer just offers nothing.
    const offered = isObject(init) && Array.isArray(init.authMethods) ? (init as InitializeResponse).authMethods ?? [] : [];
    const methods = offered.filter((m: AuthMethod) => isObject(m) && typeof m.id === 'string');
    const terminal = methods.filter(isTerminal).map((m) => ({
      id: m.id,
      name: typeof m.name === 'string' ? m.name : m.id,
      args: Array.isArray(m.args) ? m.args.filter((a): a is string => typeof a === 'string') : [],
      env: isObject(m.env) ? Object.fromEntries(Object.entries(m.env).filter((e): e is [string, string] => typeof e[1] === 'string')) : {},
    }));
    const other = methods.filter((m) => !isTerminal(m)).map((m) => m.name || m.id);
    return { terminal, other };
  } finally {
    await agent.stop();
  }
}

const isTerminal = (m: AuthMethod): m is AuthMethodTerminal & { type: 'terminal' } => 'type' in m && m.type === 'terminal';

function pickMethod(methods: { terminal: TerminalMethod[]; other: string[] }, methodId: string | undefined, agentId: string): TerminalMethod {
  const chosen = methodId === undefined ? methods.terminal[0] : methods.terminal.find((m) => m.id === methodId);
  if (chosen) return chosen;
  const offered = methods.terminal.length > 0 ? ` Its terminal logins: ${methods.terminal.map((m) => m.id).join(', ')}.` : '';
  const others = methods.other.length > 0 ? ` It offers logins the desk cannot run in a terminal: ${methods.other.join(', ')}; use them outside the desk.` : '';
  const missing = methodId === undefined ? `Agent ${agentId} offers no terminal login.` : `Agent ${agentId} has no terminal login "${methodId}".`;
  throw loginUnavailable(`${missing}${offered}${others}`);
}
