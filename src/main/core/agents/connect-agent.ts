// Opens a conversation with an agent process: `initialize` with the desk's capabilities, the dialect, then a session.
import { isObject } from './acp-client-methods';
import { startAcpSession } from './acp-session';
import type { AgentDialect } from './agent-spec';
import { AgentProtocolError, type AgentSession, type SessionCallbacks } from './agent-session';
import type { JsonRpcPeer } from './json-rpc-peer';
import { startKandevSession } from './kandev-session';

export const ACP_PROTOCOL_VERSION = 1;

/** What the desk offers every standard agent: file access and terminals in the worktree, forms, terminal logins. */
export const DESK_CLIENT_CAPABILITIES = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  elicitation: { form: {} },
  auth: { terminal: true },
};
const KANDEV_PROTOCOL_VERSION = '1.0';

export interface ConnectOptions {
  dialect: AgentDialect;
  cwd: string;
  clientVersion: string;
  authMethod?: string;
  continueSessionId?: string;
}

export async function connectAgent(peer: JsonRpcPeer, options: ConnectOptions, callbacks: SessionCallbacks): Promise<AgentSession & { continued: boolean }> {
  const clientInfo = { name: 'assignment-desk', title: 'Assignment Desk', version: options.clientVersion };
  const init = await peer.request('initialize', options.dialect === 'kandev'
    ? { protocolVersion: KANDEV_PROTOCOL_VERSION, clientInfo, capabilities: { streaming: true } }
    : {
      protocolVersion: ACP_PROTOCOL_VERSION,
      clientCapabilities: DESK_CLIENT_CAPABILITIES,
      clientInfo,
    });
  if (!isObject(init)) throw new AgentProtocolError('The agent answered initialize without an object.');
  const version = init.protocolVersion;
  const sessionOptions = {
    cwd: options.cwd, init,
    ...(options.continueSessionId !== undefined && { continueSessionId: options.continueSessionId }),
  };

  // Kandev agents answer with the string "1.0"; standard ACP agents with the integer version they speak.
  if (version === KANDEV_PROTOCOL_VERSION) {
    if (options.dialect === 'acp') {
      throw new AgentProtocolError('The agent speaks the Kandev dialect (protocol "1.0"); set its dialect to "kandev" or "auto".');
    }
    return startKandevSession(peer, sessionOptions, callbacks);
  }
  if (options.dialect === 'kandev') {
    throw new AgentProtocolError(`The agent answered protocol version ${JSON.stringify(version)}, not Kandev's "1.0"; set its dialect to "acp" or "auto".`);
  }
  if (version !== ACP_PROTOCOL_VERSION) {
    throw new AgentProtocolError(`The agent speaks protocol version ${JSON.stringify(version)}; Assignment Desk speaks ACP version ${ACP_PROTOCOL_VERSION}.`);
  }
  return startAcpSession(peer, { ...sessionOptions, ...(options.authMethod !== undefined && { authMethod: options.authMethod }) }, callbacks);
}
