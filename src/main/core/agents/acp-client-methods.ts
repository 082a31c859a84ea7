// The client side of standard ACP requests an agent makes: permissions, questions, files and terminals.
import { mapAcpUpdate } from './acp-update-mapper';
import type { ElicitationRequest, PermissionRequest, SessionCallbacks } from './agent-session';
import { INVALID_PARAMS, JsonRpcError, type JsonRpcPeer } from './json-rpc-peer';

type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Serves every agent → client method. `isReplaying()` is true while the agent replays an earlier
 * session's history (`session/load`): those updates are already recorded, so they are not recorded twice.
 */
export function serveAcpClientMethods(peer: JsonRpcPeer, { onUpdate, handlers }: SessionCallbacks, isReplaying: () => boolean): void {
  peer.onNotification((method, params) => {
    if (method !== 'session/update' || !isObject(params) || isReplaying()) return;
    const update = mapAcpUpdate(params.update);
    if (update) onUpdate(update);
  });

  peer.handle('session/request_permission', async (params) => ({ outcome: await handlers.requestPermission(toPermissionRequest(params)) }));
  peer.handle('elicitation/create', async (params) => handlers.elicit(toElicitationRequest(params)));
  peer.handle('fs/read_text_file', async (params) => {
    const p = requireObject(params);
    const line = optionalPositiveInt(p, 'line');
    const limit = optionalPositiveInt(p, 'limit');
    return { content: await handlers.readTextFile({ path: requireString(p, 'path'), ...(line && { line }), ...(limit && { limit }) }) };
  });
  peer.handle('fs/write_text_file', async (params) => {
    const p = requireObject(params);
    await handlers.writeTextFile({ path: requireString(p, 'path'), content: requireString(p, 'content') });
    return {};
  });

  const { terminals } = handlers;
  peer.handle('terminal/create', async (params) => {
    const p = requireObject(params);
    const args = Array.isArray(p.args) ? p.args.filter((a): a is string => typeof a === 'string') : [];
    const env = Array.isArray(p.env) ? p.env.filter(isObject).map((e) => ({ name: String(e.name), value: String(e.value) })) : [];
    const cwd = typeof p.cwd === 'string' ? p.cwd : null;
    const limit = typeof p.outputByteLimit === 'number' ? p.outputByteLimit : null;
    return terminals.create({ command: requireString(p, 'command'), args, env, cwd, outputByteLimit: limit });
  });
  peer.handle('terminal/output', async (params) => terminals.output(requireString(requireObject(params), 'terminalId')));
  peer.handle('terminal/wait_for_exit', async (params) => terminals.waitForExit(requireString(requireObject(params), 'terminalId')));
  peer.handle('terminal/kill', async (params) => { terminals.kill(requireString(requireObject(params), 'terminalId')); return {}; });
  peer.handle('terminal/release', async (params) => { terminals.release(requireString(requireObject(params), 'terminalId')); return {}; });
}

export function toPermissionRequest(params: unknown): PermissionRequest {
  const p = requireObject(params);
  const toolCall = isObject(p.toolCall) ? p.toolCall : {};
  const options = Array.isArray(p.options) ? p.options.filter(isObject) : [];
  const locations = Array.isArray(toolCall.locations)
    ? toolCall.locations.filter(isObject).filter((l) => typeof l.path === 'string').map((l) => ({ path: l.path as string }))
    : undefined;
  return {
    toolCall: {
      ...(typeof toolCall.toolCallId === 'string' && { toolCallId: toolCall.toolCallId }),
      ...(typeof toolCall.title === 'string' && { title: toolCall.title }),
      ...(typeof toolCall.kind === 'string' && { kind: toolCall.kind }),
      ...(locations && { locations }),
      ...(toolCall.rawInput !== undefined && { rawInput: toolCall.rawInput }),
    },
    options: options
      .filter((o) => typeof o.optionId === 'string')
      .map((o) => ({ optionId: o.optionId as string, name: typeof o.name === 'string' ? o.name : String(o.optionId), kind: typeof o.kind === 'string' ? o.kind : 'other' })),
  };
}

function toElicitationRequest(params: unknown): ElicitationRequest {
  const p = requireObject(params);
  return {
    message: requireString(p, 'message'),
    mode: typeof p.mode === 'string' ? p.mode : 'form',
    ...(p.requestedSchema !== undefined && { requestedSchema: p.requestedSchema }),
    ...(typeof p.url === 'string' && { url: p.url }),
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
