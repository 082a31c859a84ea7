// The standard ACP v1 dialect: handshake, one session in the task's worktree, turns, and the client side of agent requests.
import { mapAcpUpdate } from './acp-update-mapper';
import { AgentProtocolError, type AgentSession, type PermissionRequest, type SessionCallbacks } from './agent-session';
import { INVALID_PARAMS, JsonRpcError, type JsonRpcPeer } from './json-rpc-peer';

export const ACP_PROTOCOL_VERSION = 1;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface AcpSessionOptions {
  cwd: string;
  clientVersion: string;
}

export async function startAcpSession(peer: JsonRpcPeer, options: AcpSessionOptions, callbacks: SessionCallbacks): Promise<AgentSession> {
  serveClientMethods(peer, callbacks);

  const init = await peer.request('initialize', {
    protocolVersion: ACP_PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
    clientInfo: { name: 'assignment-desk', title: 'Assignment Desk', version: options.clientVersion },
  });
  const version = isObject(init) ? init.protocolVersion : undefined;
  if (version !== ACP_PROTOCOL_VERSION) {
    throw new AgentProtocolError(typeof version === 'string'
      ? `The agent speaks protocol version "${version}" (the Kandev dialect?); configure it with dialect "kandev".`
      : `The agent answered initialize with protocol version ${JSON.stringify(version)}; Assignment Desk speaks ACP version ${ACP_PROTOCOL_VERSION}.`);
  }

  const created = await peer.request('session/new', { cwd: options.cwd, mcpServers: [] });
  const sessionId = isObject(created) && typeof created.sessionId === 'string' ? created.sessionId : undefined;
  if (!sessionId) throw new AgentProtocolError('The agent did not return a session id for session/new.');

  return {
    sessionId,
    async prompt(text) {
      const result = await peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
      const stopReason = isObject(result) && typeof result.stopReason === 'string' ? result.stopReason : undefined;
      if (!stopReason) throw new AgentProtocolError('The agent ended the turn without a stop reason.');
      return { stopReason };
    },
    cancel() {
      peer.notify('session/cancel', { sessionId });
    },
  };
}

function serveClientMethods(peer: JsonRpcPeer, { onUpdate, handlers }: SessionCallbacks): void {
  peer.onNotification((method, params) => {
    if (method !== 'session/update' || !isObject(params)) return;
    const update = mapAcpUpdate(params.update);
    if (update) onUpdate(update);
  });

  peer.handle('session/request_permission', async (params) => {
    const request = toPermissionRequest(params);
    return { outcome: await handlers.requestPermission(request) };
  });
  peer.handle('fs/read_text_file', async (params) => {
    const p = requireObject(params);
    const path = requireString(p, 'path');
    const line = optionalPositiveInt(p, 'line');
    const limit = optionalPositiveInt(p, 'limit');
    return { content: await handlers.readTextFile({ path, ...(line && { line }), ...(limit && { limit }) }) };
  });
  peer.handle('fs/write_text_file', async (params) => {
    const p = requireObject(params);
    await handlers.writeTextFile({ path: requireString(p, 'path'), content: requireString(p, 'content') });
    return {};
  });
}

function toPermissionRequest(params: unknown): PermissionRequest {
  const p = requireObject(params);
  const toolCall = isObject(p.toolCall) ? p.toolCall : {};
  const options = Array.isArray(p.options) ? p.options.filter(isObject) : [];
  return {
    toolCall: {
      ...(typeof toolCall.toolCallId === 'string' && { toolCallId: toolCall.toolCallId }),
      ...(typeof toolCall.title === 'string' && { title: toolCall.title }),
      ...(typeof toolCall.kind === 'string' && { kind: toolCall.kind }),
    },
    options: options
      .filter((o) => typeof o.optionId === 'string')
      .map((o) => ({ optionId: o.optionId as string, name: typeof o.name === 'string' ? o.name : String(o.optionId), kind: typeof o.kind === 'string' ? o.kind : 'other' })),
  };
}

function requireObject(params: unknown): Json {
  if (!isObject(params)) throw new JsonRpcError(INVALID_PARAMS, 'params must be an object');
  return params;
}

function requireString(params: Json, key: string): string {
  const value = params[key];
  if (typeof value !== 'string') throw new JsonRpcError(INVALID_PARAMS, `${key} must be a string`);
  return value;
}

function optionalPositiveInt(params: Json, key: string): number | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new JsonRpcError(INVALID_PARAMS, `${key} must be a positive integer`);
  return value;
}
