// The standard ACP v1 dialect after `initialize`: login, a new or continued session in the task's worktree, and turns.
import { isObject, serveAcpClientMethods } from './acp-client-methods';
import { AgentLoginRequiredError, AgentProtocolError, type AgentSession, type SessionCallbacks } from './agent-session';
import { JsonRpcError, type JsonRpcPeer } from './json-rpc-peer';

/** ACP's error code for "authenticate first". */
const AUTH_REQUIRED = -32000;

export interface AcpSessionOptions {
  cwd: string;
  /** The agent's answer to `initialize`. */
  init: Record<string, unknown>;
  /** A login method to use before the session starts (configured per agent, e.g. an API-key method). */
  authMethod?: string;
  /** Continue this earlier session when the agent supports it. */
  continueSessionId?: string;
}

export async function startAcpSession(peer: JsonRpcPeer, options: AcpSessionOptions, callbacks: SessionCallbacks): Promise<AgentSession & { continued: boolean }> {
  let replaying = false;
  serveAcpClientMethods(peer, callbacks, () => replaying);

  const capabilities = isObject(options.init.agentCapabilities) ? options.init.agentCapabilities : {};
  const sessionCapabilities = isObject(capabilities.sessionCapabilities) ? capabilities.sessionCapabilities : {};
  const canLoad = capabilities.loadSession === true;
  const canResume = isObject(sessionCapabilities.resume);
  const authMethods = (Array.isArray(options.init.authMethods) ? options.init.authMethods : []).filter(isObject);

  if (options.authMethod) await peer.request('authenticate', { methodId: options.authMethod });

  const base = { cwd: options.cwd, mcpServers: [] };
  let sessionId: string | undefined;
  let continued = false;
  let answer: unknown;
  try {
    if (options.continueSessionId && (canLoad || canResume)) {
      // A loaded session replays its history as updates; the desk recorded them the first time.
      replaying = canLoad;
      answer = await peer.request(canLoad ? 'session/load' : 'session/resume', { ...base, sessionId: options.continueSessionId });
      sessionId = options.continueSessionId;
      continued = true;
    } else {
      answer = await peer.request('session/new', base);
      sessionId = isObject(answer) && typeof answer.sessionId === 'string' ? answer.sessionId : undefined;
    }
  } catch (error) {
    if (error instanceof JsonRpcError && error.code === AUTH_REQUIRED) throw loginRequired(authMethods, error.message);
    throw error;
  } finally {
    replaying = false;
  }
  if (!sessionId) throw new AgentProtocolError('The agent did not return a session id for session/new.');
  const id = sessionId;
  const described = isObject(answer) ? answer : {};

  return {
    sessionId: id,
    dialect: 'acp',
    continued,
    features: {
      canContinue: canLoad || canResume,
      ...(described.modes !== undefined && described.modes !== null && { modes: described.modes }),
      ...(described.configOptions !== undefined && described.configOptions !== null && { configOptions: described.configOptions }),
    },
    async prompt(text) {
      const result = await peer.request('session/prompt', { sessionId: id, prompt: [{ type: 'text', text }] });
      const stopReason = isObject(result) && typeof result.stopReason === 'string' ? result.stopReason : undefined;
      if (!stopReason) throw new AgentProtocolError('The agent ended the turn without a stop reason.');
      return { stopReason };
    },
    cancel() {
      peer.notify('session/cancel', { sessionId: id });
    },
    async setMode(modeId) {
      await peer.request('session/set_mode', { sessionId: id, modeId });
    },
    async setConfigOption(configId, value) {
      await peer.request('session/set_config_option', typeof value === 'boolean'
        ? { sessionId: id, configId, type: 'boolean', value }
        : { sessionId: id, configId, value });
    },
  };
}

function loginRequired(methods: Record<string, unknown>[], agentMessage: string): AgentLoginRequiredError {
  const described = methods.filter((m) => typeof m.id === 'string').map((m) => ({
    id: m.id as string,
    name: typeof m.name === 'string' ? m.name : (m.id as string),
    ...(typeof m.description === 'string' && { description: m.description }),
  }));
  const list = described.map((m) => `"${m.name}"${m.description ? ` (${m.description})` : ''}`).join(', ');
  return new AgentLoginRequiredError(
    described.length > 0
      ? `The agent needs a login before it can work: ${list}. Log in once outside the desk (a terminal login also runs with POST /api/agents/<id>/login), or set the agent's authMethod and pass its key through envAllowlist.`
      : `The agent needs a login before it can work (${agentMessage}).`,
    described,
  );
}
