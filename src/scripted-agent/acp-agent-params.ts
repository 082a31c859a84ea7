// What the scripted agent reads from a client's ACP requests, checked as the SDK's schemas check those fields: a
// missing or mistyped one is answered with -32602 "Invalid params" (data shaped like zod's `format()`).
import type { ClientCapabilities, HttpHeader, McpServer } from '@agentclientprotocol/sdk';
import { isObject } from '../shared/is-object';
import { INVALID_PARAMS, JsonRpcError } from '../shared/json-rpc-peer';

type Path = readonly (string | number)[];

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);

/** `initialize`: the version asked for (an integer 0–65535) and what the client offers; bad offers count as none. */
export function readInitialize(params: unknown): { protocolVersion: number; clientCapabilities: ClientCapabilities } {
  const fields = objectAt(params, []);
  const version = fields.protocolVersion;
  if (typeof version !== 'number') throw invalid(['protocolVersion'], expected('number', version));
  if (!Number.isInteger(version)) throw invalid(['protocolVersion'], expected('int', version));
  if (version < 0 || version > 65535) throw invalid(['protocolVersion'], `Too ${version < 0 ? 'small: expected number to be >=0' : 'big: expected number to be <=65535'}`);
  const offered = isObject(fields.clientCapabilities) ? fields.clientCapabilities : {};
  const fs = isObject(offered.fs) ? offered.fs : {};
  return {
    protocolVersion: version,
    clientCapabilities: { fs: { readTextFile: fs.readTextFile === true, writeTextFile: fs.writeTextFile === true }, terminal: offered.terminal === true },
  };
}

/** `session/new`: the session's directory and the MCP servers it may call (null counts as none). */
export function readNewSession(params: unknown): { cwd: string; mcpServers: McpServer[] } {
  const fields = objectAt(params, []);
  const cwd = stringAt(fields.cwd, ['cwd']);
  const servers = fields.mcpServers === null ? [] : arrayAt(fields.mcpServers, ['mcpServers']);
  return { cwd, mcpServers: servers.map((server, index) => mcpServerAt(server, ['mcpServers', index])) };
}

/** `session/prompt`: the session named and the prompt's text (its text blocks, one per line). */
export function readPrompt(params: unknown): { sessionId: string; text: string } {
  const fields = objectAt(params, []);
  const sessionId = stringAt(fields.sessionId, ['sessionId']);
  const blocks = arrayAt(fields.prompt, ['prompt']).map((block, index) => {
    const path = ['prompt', index];
    const content = objectAt(block, path);
    if (typeof content.type !== 'string' || !CONTENT_TYPES.has(content.type)) throw invalid(path, 'Invalid input');
    // Images, resources and other blocks have nothing to say to a script.
    return content.type === 'text' ? stringAt(content.text, [...path, 'text']) : '';
  });
  return { sessionId, text: blocks.filter((text) => text !== '').join('\n') };
}

/** `session/cancel`: the session named, or undefined when the notification names none we can read. */
export function readCancel(params: unknown): string | undefined {
  return isObject(params) && typeof params.sessionId === 'string' ? params.sessionId : undefined;
}

function mcpServerAt(value: unknown, path: Path): McpServer {
  const server = objectAt(value, path);
  const name = stringAt(server.name, [...path, 'name']);
  if (server.type === 'http' || server.type === 'sse') {
    const url = stringAt(server.url, [...path, 'url']);
    const headers = namedValuesAt(server.headers, [...path, 'headers']);
    return server.type === 'http' ? { type: 'http', name, url, headers } : { type: 'sse', name, url, headers };
  }
  if ('type' in server) throw invalid(path, 'Invalid input');
  const command = stringAt(server.command, [...path, 'command']);
  const args = (server.args === null ? [] : arrayAt(server.args, [...path, 'args'])).map((arg, index) => stringAt(arg, [...path, 'args', index]));
  return { name, command, args, env: namedValuesAt(server.env, [...path, 'env']) };
}

/** HTTP headers and environment variables alike: `{name, value}` pairs, null counting as none. */
function namedValuesAt(value: unknown, path: Path): HttpHeader[] {
  const list = value === null ? [] : arrayAt(value, path);
  return list.map((item, index) => {
    const pair = objectAt(item, [...path, index]);
    return { name: stringAt(pair.name, [...path, index, 'name']), value: stringAt(pair.value, [...path, index, 'value']) };
  });
}

function objectAt(value: unknown, path: Path): Record<string, unknown> {
  if (isObject(value)) return value;
  throw invalid(path, expected('object', value));
}

function arrayAt(value: unknown, path: Path): unknown[] {
  if (Array.isArray(value)) return value;
  throw invalid(path, expected('array', value));
}

function stringAt(value: unknown, path: Path): string {
  if (typeof value === 'string') return value;
  throw invalid(path, expected('string', value));
}

/** zod's wording, which clients of the SDK's agents already see. */
function expected(type: string, value: unknown): string {
  const received = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return `Invalid input: expected ${type}, received ${received}`;
}

/** -32602 with `data` nested along the field's path, as zod's `format()` nests it. */
function invalid(path: Path, message: string): JsonRpcError {
  let data: Record<string, unknown> = { _errors: [message] };
  for (const key of [...path].reverse()) data = { _errors: [], [key]: data };
  return new JsonRpcError(INVALID_PARAMS, 'Invalid params', data);
}
