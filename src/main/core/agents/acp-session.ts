// The standard ACP v1 dialect after `initialize`, on the SDK's client app: login, a new or continued session in
// the task's worktree, and turns.
import { RequestError, methods, type AnyMessage, type InitializeResponse, type NewSessionRequest, type Stream } from '@agentclientprotocol/sdk';
import { JsonRpcError } from '../../../shared/json-rpc-peer';
import type { MessageChannel } from '../../../shared/ndjson-channel';
import { deskClientApp } from './acp-client-methods';
import { MCP_SERVER_NAME } from '../../../shared/mcp';
import type { McpServerEntry } from '../../../shared/mcp';
import { isAuthRequired, offeredMethods } from './agent-auth';
import { agentImplementation, agentLoginRequired, agentProtocolError, type AgentSession, type SessionCallbacks } from './agent-session';
import { tookUnknownUpdate } from './unknown-updates';
import { filterMessages } from './message-filter';
import { turnTokensOf } from './acp-update-mapper';
import { withinHandshake } from './handshake-deadline';
import { createToolCallMemory } from './tool-call-memory';

export interface AcpSessionOptions {
  cwd: string;
  /** The agent's answer to `initialize`. */
  init: InitializeResponse;
  /** A login method to use before the session starts (configured per agent, e.g. an API-key method). */
  authMethod?: string;
  /** Continue this earlier session when the agent supports it. */
  continueSessionId?: string;
  /** The desk's MCP server, passed in `session/new` when the agent declares `mcpCapabilities.http`. */
  mcp?: McpServerEntry;
  /** How long authenticate and session/new (load, resume) may wait for the agent's answer. */
  handshakeTimeoutMs: number;
}

export async function startAcpSession(channel: MessageChannel, options: AcpSessionOptions, callbacks: SessionCallbacks): Promise<AgentSession & { continued: boolean }> {
  let replaying = false;
  // The SDK checks each message's shape itself; our channel only parses JSON lines.
  // Update kinds newer than the SDK's schema would be dropped by it; they reach the task as text instead.
  // Permission requests are judged by the tool call they are about, as the session's updates described it: the memory
  // is filled in the order the agent wrote, before the SDK dispatches anything, so a request finds the updates before it.
  const toolCalls = createToolCallMemory();
  const readable = filterMessages(channel.readable, (message) => {
    if (tookUnknownUpdate(message, callbacks.onUpdate)) return false;
    toolCalls.see(message);
    return true;
  });
  const stream: Stream = { readable: readable as ReadableStream<AnyMessage>, writable: channel.writable };
  const connection = deskClientApp(callbacks, () => replaying, toolCalls).connect(stream);
  // Closing the channel (agent exit) fails pending calls with its reason; the SDK ending on its own closes the channel.
  channel.onClose((error) => connection.close(error));
  void connection.closed.then(() => channel.close(new Error('The ACP connection closed')));
  const agent = connection.agent;
  /**
   * SDK rejections become the desk's JsonRpcError, which the task runner reports as the agent's failure; a login the
   * agent wants, whenever it says so (authenticate, session/new or a prompt), becomes `agent_login_required`.
   */
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw deskSide(error);
    }
  };
  const deskSide = (error: unknown): unknown => {
    if (error instanceof RequestError && isAuthRequired(error)) return loginRequired(error.message);
    // The task runner words a bare error with its cause (tasks/agent-trouble.ts), where the endpoint is known too.
    if (error instanceof RequestError) return new JsonRpcError(error.code, error.message, error.data);
    return error;
  };
  const loginRequired = (agentMessage: string) => agentLoginRequired(agentMessage, offeredMethods(options.init.authMethods), agentImplementation(options.init.agentInfo).agent);

  const capabilities = options.init.agentCapabilities ?? {};
  const canLoad = capabilities.loadSession === true;
  const canResume = capabilities.sessionCapabilities?.resume !== undefined && capabilities.sessionCapabilities.resume !== null;

  if (options.authMethod) {
    const methodId = options.authMethod;
    await call(() => withinHandshake('authenticate', options.handshakeTimeoutMs, channel, () => agent.request(methods.agent.authenticate, { methodId })));
  }

  // Every agent takes stdio MCP servers; an HTTP one only when the agent says it does.
  const mcpServers: NewSessionRequest['mcpServers'] = options.mcp && capabilities.mcpCapabilities?.http === true
    ? [{ type: 'http', name: MCP_SERVER_NAME, url: options.mcp.url, headers: options.mcp.headers }] : [];
  const base: NewSessionRequest = { cwd: options.cwd, mcpServers };
  let sessionId: string;
  let continued = false;
  let described: { modes?: unknown; configOptions?: unknown } = {};
  try {
    const earlier = options.continueSessionId;
    if (earlier && (canLoad || canResume)) {
      // A loaded session replays its history as updates; the desk recorded them the first time.
      replaying = canLoad;
      described = (canLoad
        ? await withinHandshake('session/load', options.handshakeTimeoutMs, channel, () => agent.request(methods.agent.session.load, { ...base, sessionId: earlier }))
        : await withinHandshake('session/resume', options.handshakeTimeoutMs, channel, () => agent.request(methods.agent.session.resume, { ...base, sessionId: earlier }))) ?? {};
      sessionId = earlier;
      continued = true;
    } else {
      const created = await withinHandshake('session/new', options.handshakeTimeoutMs, channel, () => agent.request(methods.agent.session.new, base));
      if (typeof created?.sessionId !== 'string') throw agentProtocolError('The agent did not return a session id for session/new.');
      sessionId = created.sessionId;
      described = created;
    }
  } catch (error) {
    throw deskSide(error);
  } finally {
    replaying = false;
  }
  const id = sessionId;

  return {
    sessionId: id,
    dialect: 'acp',
    continued,
    features: {
      canContinue: canLoad || canResume,
      ...agentImplementation(options.init.agentInfo),
      ...(described.modes !== undefined && described.modes !== null && { modes: described.modes }),
      ...(described.configOptions !== undefined && described.configOptions !== null && { configOptions: described.configOptions }),
    },
    async prompt(text) {
      const result = await call(() => agent.request(methods.agent.session.prompt, { sessionId: id, prompt: [{ type: 'text', text }] }));
      if (typeof result?.stopReason !== 'string') throw agentProtocolError('The agent ended the turn without a stop reason.');
      // `usage` is in ACP's unstable schema, not the stable PromptResponse type: read as whatever the agent sent.
      const usage = turnTokensOf((result as { usage?: unknown }).usage);
      return { stopReason: result.stopReason, ...(usage && { usage }) };
    },
    cancel() {
      void agent.notify(methods.agent.session.cancel, { sessionId: id }).catch(() => {});
    },
    async setMode(modeId) {
      await call(() => agent.request(methods.agent.session.setMode, { sessionId: id, modeId }));
    },
    async setConfigOption(configId, value) {
      await call(() => agent.request(methods.agent.session.setConfigOption, typeof value === 'boolean'
        ? { sessionId: id, configId, type: 'boolean', value }
        : { sessionId: id, configId, value }));
    },
  };
}
