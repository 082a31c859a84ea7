// Opens a conversation with an agent: `initialize` with the desk's capabilities, the dialect from the answer, then a
// session — standard ACP on the SDK's client app, Kandev on our JSON-RPC peer, both behind AgentSession.
import type { ClientCapabilities, InitializeResponse } from '@agentclientprotocol/sdk';
import { isObject } from '../../../shared/is-object';
import { JsonRpcError, INTERNAL_ERROR, PeerClosedError } from '../../../shared/json-rpc-peer';
import type { MessageChannel } from '../../../shared/ndjson-channel';
import type { AgentDialect } from './agent-spec';
import { agentProtocolError, type AgentSession, type SessionCallbacks } from './agent-session';
import { KandevInitializeResult } from './kandev-messages';
import { startKandevSession } from './kandev-session';
import type { McpServerEntry } from '../mcp/mcp-access';

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
/** The id of the one request sent before a dialect is chosen; the chosen side numbers its own requests afterwards. */
const HANDSHAKE_ID = 0;

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
}

export async function connectAgent(channel: MessageChannel, options: ConnectOptions, callbacks: SessionCallbacks): Promise<AgentSession & { continued: boolean }> {
  const clientInfo = { name: 'assignment-desk', title: 'Assignment Desk', version: options.clientVersion };
  const init = await exchangeInitialize(channel, options.dialect === 'kandev'
    ? { protocolVersion: KANDEV_PROTOCOL_VERSION, clientInfo, capabilities: { streaming: true } }
    : { protocolVersion: ACP_PROTOCOL_VERSION, clientCapabilities: { ...DESK_CLIENT_CAPABILITIES, fs: options.fileMethods ?? DESK_CLIENT_CAPABILITIES.fs }, clientInfo });
  if (!isObject(init)) throw agentProtocolError('The agent answered initialize without an object.');
  const version = init.protocolVersion;
  const sessionOptions = {
    cwd: options.cwd,
    ...(options.continueSessionId !== undefined && { continueSessionId: options.continueSessionId }),
  };

  // Kandev agents answer with the string "1.0"; standard ACP agents with the integer version they speak.
  if (version === KANDEV_PROTOCOL_VERSION) {
    if (options.dialect === 'acp') {
      throw agentProtocolError('The agent speaks the Kandev dialect (protocol "1.0"); set its dialect to "kandev" or "auto".');
    }
    const kandev = KandevInitializeResult.safeParse(init);
    if (!kandev.success) throw agentProtocolError('The agent answered Kandev\'s initialize with an unexpected shape.');
    return startKandevSession(channel, { ...sessionOptions, init: kandev.data }, callbacks);
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
  return startAcpSession(channel, {
    ...sessionOptions,
    init: init as InitializeResponse,
    ...(options.authMethod !== undefined && { authMethod: options.authMethod }),
    ...(options.mcp && { mcp: options.mcp }),
  }, callbacks);
}

/**
 * Sends `initialize` and reads messages until its answer, before any dialect owns the channel: the answer's raw
 * `protocolVersion` (integer for ACP, "1.0" for Kandev) decides which side reads the rest. Messages before the
 * answer are dropped — an agent has nothing to say before it has been initialized.
 */
export async function exchangeInitialize(channel: MessageChannel, params: object): Promise<unknown> {
  const writer = channel.writable.getWriter();
  try {
    await writer.write({ jsonrpc: '2.0', id: HANDSHAKE_ID, method: 'initialize', params });
  } finally {
    writer.releaseLock();
  }
  const reader = channel.readable.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw channel.closedWith ?? new PeerClosedError('The agent closed its output before answering initialize');
      if (!isObject(value) || value.id !== HANDSHAKE_ID || 'method' in value) continue;
      if (isObject(value.error)) {
        const { code, message } = value.error;
        throw new JsonRpcError(typeof code === 'number' ? code : INTERNAL_ERROR, typeof message === 'string' ? message : 'initialize failed');
      }
      return value.result;
    }
  } finally {
    reader.releaseLock();
  }
}
