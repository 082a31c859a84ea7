// Opens a conversation with an agent: `initialize` with the desk's capabilities, the dialect from the answer, then a
// session — standard ACP on the SDK's client app, Kandev on our JSON-RPC peer, both behind AgentSession.
import type { ClientCapabilities, InitializeResponse } from '@agentclientprotocol/sdk';
import { isObject } from '../../../shared/is-object';
import type { MessageChannel } from '../../../shared/ndjson-channel';
import type { AgentDialect } from './agent-spec';
import { agentProtocolError, type AgentSession, type SessionCallbacks } from './agent-session';
import { KandevInitializeResult } from './kandev-messages';
import { startKandevSession } from './kandev-session';
import type { McpServerEntry } from '../../../shared/mcp';
import { DEFAULT_HANDSHAKE_TIMEOUT_MS, withinHandshake } from './handshake-deadline';
import { initializeAndKeep } from './initialize-exchange';

export { exchangeInitialize } from './initialize-exchange';

/** ACP's protocol version (the SDK's PROTOCOL_VERSION; written out so the SDK loads only when an agent starts). */
export const ACP_PROTOCOL_VERSION = 1;

/** What the desk offers every standard agent: file access and terminals in the worktree, forms, terminal logins. */
export const DESK_CLIENT_CAPABILITIES = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  elicitation: { form: {} },
  auth: { terminal: true },
} satisfies ClientCapabilities;
const KANDEV_PROTOCOL_VERSION = '1.0';

export interface ConnectOptions {
  dialect: AgentDialect;
  cwd: string;
  clientVersion: string;
  authMethod?: string;
  continueSessionId?: string;
  /** The ACP file methods to offer; default: both (see AgentSpec.fileMethods). */
  fileMethods?: { readTextFile: boolean; writeTextFile: boolean };
  /** The desk's MCP server for this task, offered to agents that declare HTTP MCP support. */
  mcp?: McpServerEntry;
  /** How long each handshake step may wait for the agent's answer; default DEFAULT_HANDSHAKE_TIMEOUT_MS. */
  handshakeTimeoutMs?: number;
}

export async function connectAgent(channel: MessageChannel, options: ConnectOptions, callbacks: SessionCallbacks): Promise<AgentSession & { continued: boolean }> {
  const clientInfo = { name: 'assignment-desk', title: 'Assignment Desk', version: options.clientVersion };
  const handshakeTimeoutMs = options.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
  const { answer: init, channel: rest } = await withinHandshake('initialize', handshakeTimeoutMs, channel, () => initializeAndKeep(channel, options.dialect === 'kandev'
    ? { protocolVersion: KANDEV_PROTOCOL_VERSION, clientInfo, capabilities: { streaming: true } }
    : { protocolVersion: ACP_PROTOCOL_VERSION, clientCapabilities: { ...DESK_CLIENT_CAPABILITIES, fs: options.fileMethods ?? DESK_CLIENT_CAPABILITIES.fs }, clientInfo }));
  if (!isObject(init)) throw agentProtocolError('The agent answered initialize without an object.');
  callbacks.onInitialized?.();
  const version = init.protocolVersion;
  const sessionOptions = {
    cwd: options.cwd,
    handshakeTimeoutMs,
    ...(options.continueSessionId !== undefined && { continueSessionId: options.continueSessionId }),
  };

  // Kandev agents answer with the string "1.0"; standard ACP agents with the integer version they speak.
  if (version === KANDEV_PROTOCOL_VERSION) {
    if (options.dialect === 'acp') {
      throw agentProtocolError('The agent speaks the Kandev dialect (protocol "1.0"); set its dialect to "kandev" or "auto".');
    }
    const kandev = KandevInitializeResult.safeParse(init);
    if (!kandev.success) throw agentProtocolError('The agent answered Kandev\'s initialize with an unexpected shape.');
    return startKandevSession(rest, { ...sessionOptions, init: kandev.data }, callbacks);
  }
  if (options.dialect === 'kandev') {
    throw agentProtocolError(`The agent answered protocol version ${JSON.stringify(version)}, not Kandev's "1.0"; set its dialect to "acp" or "auto".`);
  }
  if (version !== ACP_PROTOCOL_VERSION) {
    throw agentProtocolError(`The agent speaks protocol version ${JSON.stringify(version)}; Assignment Desk speaks ACP version ${ACP_PROTOCOL_VERSION}.`);
  }
  // The SDK reads the rest of the conversation; the answer's fields it did not check are only read, never trusted.
  // The SDK (and its schemas) load with the first standard agent, not with the desk: start-up stays quick.
  const { startAcpSession } = await import('./acp-session');
  return startAcpSession(rest, {
    ...sessionOptions,
    init: init as InitializeResponse,
    ...(options.authMethod !== undefined && { authMethod: options.authMethod }),
    ...(options.mcp && { mcp: options.mcp }),
  }, callbacks);
}
