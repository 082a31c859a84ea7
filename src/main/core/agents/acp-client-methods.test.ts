// The errors an agent hears from the desk's client methods, over in-memory streams with the real worktree files
// and terminal host in a temp dir: the codes ACP defines, never a bare "Internal error" for a known cause.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deskError } from '../../../shared/desk-error';
import { createJsonRpcPeer, JsonRpcError, type JsonRpcPeer } from '../../../shared/json-rpc-peer';
import { ndjsonChannel, type MessageChannel } from '../../../shared/ndjson-channel';
import { RESOURCE_NOT_FOUND } from './acp-errors';
import type { ClientHandlers } from './agent-session';
import { connectAgent } from './connect-agent';
import { createTerminalHost } from './terminal-host';
import { createWorktreeFiles } from './worktree-files';

function pair(): { desk: MessageChannel; agent: JsonRpcPeer } {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toDesk = new TransformStream<Uint8Array, Uint8Array>();
  return { desk: ndjsonChannel(toAgent.writable, toDesk.readable), agent: createJsonRpcPeer(ndjsonChannel(toDesk.writable, toAgent.readable)) };
}

let worktree: string;
beforeEach(() => { worktree = mkdtempSync(join(tmpdir(), 'acp-errors-')); });
afterEach(() => rmSync(worktree, { recursive: true, force: true }));

/** A connected standard agent whose client is the desk with `handlers` (the worktree's real files and terminals by default). */
async function connected(dialect: 'acp' | 'kandev', override: Partial<ClientHandlers> = {}): Promise<JsonRpcPeer> {
  const { desk, agent } = pair();
  agent.handle('initialize', () => (dialect === 'acp' ? { protocolVersion: 1, agentCapabilities: {} } : { protocolVersion: '1.0' }));
  agent.handle('session/new', () => ({ sessionId: 's1' }));
  const files = createWorktreeFiles(worktree);
  const terminals = createTerminalHost({ worktree, baseEnv: {}, record: () => {} });
  await connectAgent(desk, { dialect, cwd: worktree, clientVersion: 'test' }, {
    onUpdate: () => {},
    handlers: {
      requestPermission: async () => ({ outcome: 'cancelled' }),
      elicit: async () => ({ action: 'cancel' }),
      readTextFile: files.readTextFile,
      writeTextFile: files.writeTextFile,
      terminals,
      ...override,
    },
  });
  return agent;
}

/** The error the desk answered `method` with. */
async function refusal(agent: JsonRpcPeer, method: string, params: object): Promise<JsonRpcError> {
  const error = await agent.request(method, { sessionId: 's1', ...params }).then(() => undefined, (e: unknown) => e);
  if (!(error instanceof JsonRpcError)) throw new Error(`${method} did not fail: ${String(error)}`);
  return error;
}

describe.each(['acp', 'kandev'] as const)('the desk as a client of a %s agent', (dialect) => {
  it('answers a read of a file that does not exist with ACP\'s resource-not-found, naming the path', async () => {
    const agent = await connected(dialect);
    const error = await refusal(agent, 'fs/read_text_file', { path: join(worktree, 'new.txt') });
    expect({ code: error.code, message: error.message }).toEqual({ code: RESOURCE_NOT_FOUND, message: `Resource not found: ${join(worktree, 'new.txt')}` });
  });

  it('answers a read below a path that is a file with resource-not-found', async () => {
    writeFileSync(join(worktree, 'a.txt'), 'a');
    const agent = await connected(dialect);
    expect((await refusal(agent, 'fs/read_text_file', { path: join(worktree, 'a.txt', 'b.txt') })).code).toBe(RESOURCE_NOT_FOUND);
  });

  it('answers a read of a directory as invalid params that say it is a directory', async () => {
    mkdirSync(join(worktree, 'src'));
    const agent = await connected(dialect);
    const error = await refusal(agent, 'fs/read_text_file', { path: join(worktree, 'src') });
    expect({ code: error.code, message: error.message }).toEqual({ code: -32602, message: expect.stringContaining('is a directory') });
  });

  it('answers a write over a directory as invalid params', async () => {
    mkdirSync(join(worktree, 'src'));
    const agent = await connected(dialect);
    expect((await refusal(agent, 'fs/write_text_file', { path: join(worktree, 'src'), content: 'x' })).code).toBe(-32602);
  });

  it('refuses a read outside the worktree as invalid params, not as a missing file', async () => {
    const agent = await connected(dialect);
    const error = await refusal(agent, 'fs/read_text_file', { path: '/etc/passwd' });
    expect({ code: error.code, message: error.message }).toEqual({ code: -32602, message: expect.stringContaining('outside the task\'s worktree') });
  });

  it('answers a policy\'s refusal with its own words', async () => {
    const agent = await connected(dialect, { readTextFile: async () => { throw new JsonRpcError(-32602, 'Access denied: reads of .env are denied'); } });
    const error = await refusal(agent, 'fs/read_text_file', { path: join(worktree, '.env') });
    expect({ code: error.code, message: error.message }).toEqual({ code: -32602, message: 'Access denied: reads of .env are denied' });
  });

  it('answers a failure of the desk with its cause rather than a bare internal error', async () => {
    const agent = await connected(dialect, { requestPermission: async () => { throw new Error('the audit log is locked'); } });
    const error = await refusal(agent, 'session/request_permission', { toolCall: { toolCallId: 't1', title: 'Write a.txt' }, options: [] });
    expect({ code: error.code, message: error.message }).toEqual({ code: -32603, message: expect.stringContaining('the audit log is locked') });
  });

  it('answers a desk error by its kind, keeping its words', async () => {
    const agent = await connected(dialect, { elicit: async () => { throw deskError('not_found', 'task_not_found', 'The task is gone.'); } });
    const error = await refusal(agent, 'elicitation/create', { message: 'Which name?', mode: 'form', requestedSchema: { type: 'object', properties: {} } });
    expect({ code: error.code, message: error.message }).toEqual({ code: RESOURCE_NOT_FOUND, message: 'The task is gone.' });
  });
});

describe('the desk\'s terminals', () => {
  it.each(['terminal/output', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/release'])('answer %s of an unknown terminal with resource-not-found', async (method) => {
    const agent = await connected('acp');
    const error = await refusal(agent, method, { terminalId: 'term-404' });
    expect({ code: error.code, message: error.message }).toEqual({ code: RESOURCE_NOT_FOUND, message: expect.stringContaining('Unknown terminal term-404') });
  });

  it('answers a terminal in a directory that does not exist as invalid params', async () => {
    const agent = await connected('acp');
    const error = await refusal(agent, 'terminal/create', { command: 'true', cwd: join(worktree, 'nowhere') });
    expect({ code: error.code, message: error.message }).toEqual({ code: -32602, message: expect.stringContaining('does not exist') });
  });
});
