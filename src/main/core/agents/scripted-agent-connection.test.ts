// The desk's client talking to the real scripted agent in both dialects over in-memory stream pairs, with no
// process in between (as the ACP SDK's own tests connect a client and an agent).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentUpdate } from '../../../shared/events';
import { INVALID_PARAMS, JsonRpcError } from '../../../shared/json-rpc-peer';
import { ndjsonChannel } from '../../../shared/ndjson-channel';
import { startAcpScriptedAgent } from '../../../scripted-agent/acp-scripted-agent';
import { startKandevScriptedAgent } from '../../../scripted-agent/kandev-scripted-agent';
import type { AgentSession, ClientHandlers, PermissionRequest } from './agent-session';
import { connectAgent } from './connect-agent';

type Dialect = 'acp' | 'kandev';

let cwd: string;
beforeEach(async () => { cwd = await mkdtemp(join(tmpdir(), 'desk-conn-')); });
afterEach(async () => { await rm(cwd, { recursive: true, force: true }); });

const exit = (code: number): never => { throw new Error(`the agent tried to exit with ${code}`); };

/** What the desk's handlers saw, and the updates recorded. */
interface Seen { updates: AgentUpdate[]; permissions: PermissionRequest[]; reads: string[]; writes: { path: string; content: string }[]; commands: string[] }

/** Starts the scripted agent in `dialect` and connects the desk to it through two in-memory byte pipes. */
async function connect(dialect: Dialect, overrides: Partial<ClientHandlers> = {}): Promise<{ session: AgentSession & { continued: boolean }; seen: Seen }> {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toDesk = new TransformStream<Uint8Array, Uint8Array>();
  const agentSide = { input: toAgent.readable, output: toDesk.writable, exit };
  if (dialect === 'acp') startAcpScriptedAgent(agentSide);
  else startKandevScriptedAgent({ ...agentSide, defaultCwd: cwd, log: () => {} });
  const seen: Seen = { updates: [], permissions: [], reads: [], writes: [], commands: [] };
  const session = await connectAgent(ndjsonChannel(toAgent.writable, toDesk.readable), { dialect: 'auto', cwd, clientVersion: 'test' }, {
    onUpdate: (update) => seen.updates.push(update),
    handlers: {
      requestPermission: async (request) => {
        seen.permissions.push(request);
        const allow = request.options.find((o) => o.kind === 'allow_once');
        return allow ? { outcome: 'selected', optionId: allow.optionId } : { outcome: 'cancelled' };
      },
      elicit: async () => ({ action: 'accept', content: { answer: '42' } }),
      readTextFile: async ({ path }) => { seen.reads.push(path); return 'from the desk'; },
      writeTextFile: async (request) => { seen.writes.push(request); },
      terminals: {
        create: async ({ command, args }) => { seen.commands.push([command, ...(args ?? [])].join(' ')); return { terminalId: 't1' }; },
        output: () => ({ output: 'ran in the desk\n', truncated: false, exitStatus: { exitCode: 0, signal: null } }),
        waitForExit: async () => ({ exitCode: 0, signal: null }),
        kill: () => {},
        release: () => {},
      },
      ...overrides,
    },
  });
  return { session, seen };
}

const said = (seen: Seen): string[] => seen.updates.flatMap((u) => (u.kind === 'message' && u.role === 'agent' ? [u.text] : []));

describe.each<Dialect>(['acp', 'kandev'])('the desk connected to the scripted agent (%s)', (dialect) => {
  it('detects the dialect from the initialize answer and opens a session', async () => {
    const { session } = await connect(dialect);
    expect(session.dialect).toBe(dialect);
    expect(session.sessionId).toMatch(/.+/);
    expect(session.continued).toBe(false);
  });

  it('runs a prompt to the end of its turn, streaming its updates', async () => {
    const { session, seen } = await connect(dialect);
    expect(await session.prompt('think first\nplan a; b\nsay hello')).toEqual({ stopReason: 'end_turn' });
    expect(said(seen)).toEqual(['hello']);
    expect(seen.updates).toContainEqual({ kind: 'message', role: 'thought', text: 'first' });
    expect(seen.updates.find((u) => u.kind === 'plan')).toMatchObject({ entries: [{ content: 'a' }, { content: 'b' }] });
  });

  it('asks the desk for permission and goes on once it is allowed', async () => {
    const { session, seen } = await connect(dialect);
    await session.prompt('ask Deploy?\nsay deployed');
    expect(seen.permissions).toHaveLength(1);
    expect(seen.permissions[0]?.toolCall.title).toBe('Deploy?');
    expect(said(seen)).toContain('deployed');
  });

  it('rejects the prompt with the agent\'s error when its turn fails', async () => {
    const { session } = await connect(dialect);
    const failure = session.prompt('fail it broke');
    await expect(failure).rejects.toBeInstanceOf(JsonRpcError);
    await expect(failure).rejects.toThrow(/it broke/);
  });

  it('ends a running turn as cancelled when the desk cancels it', async () => {
    const { session } = await connect(dialect);
    const turn = session.prompt('sleep 20000\nsay too late');
    await new Promise((resolve) => setTimeout(resolve, 50));
    session.cancel();
    expect(await turn).toEqual({ stopReason: 'cancelled' });
  });
});

describe('the desk serving the standard scripted agent\'s client calls', () => {
  it('routes file reads and writes to the desk\'s handlers', async () => {
    const { session, seen } = await connect('acp');
    await session.prompt('write notes/a.txt hi there\nread notes/a.txt');
    expect(seen.writes).toEqual([{ path: join(cwd, 'notes/a.txt'), content: 'hi there\n' }]);
    expect(new Set(seen.reads)).toEqual(new Set([join(cwd, 'notes/a.txt')]));
    expect(seen.updates.some((u) => u.kind === 'tool-call-update' && JSON.stringify(u.content ?? []).includes('from the desk'))).toBe(true);
  });

  it('routes a command to the desk\'s terminals and shows their output', async () => {
    const { session, seen } = await connect('acp');
    expect(await session.prompt('run echo hi')).toEqual({ stopReason: 'end_turn' });
    expect(seen.commands).toHaveLength(1);
    expect(seen.commands[0]).toContain('echo hi');
    expect(seen.updates).toContainEqual(expect.objectContaining({ kind: 'tool-call-update', status: 'completed' }));
  });

  it('answers a desk refusal to the agent with its JSON-RPC code and message', async () => {
    const { session, seen } = await connect('acp', {
      writeTextFile: async () => { throw new JsonRpcError(INVALID_PARAMS, 'outside the worktree'); },
    });
    await session.prompt('write a.txt hi\nsay after');
    const failed = seen.updates.find((u) => u.kind === 'tool-call-update' && u.status === 'failed');
    expect(JSON.stringify(failed)).toContain('outside the worktree');
    expect(said(seen)).toContain('after');
  });
});

describe('the desk with the Kandev scripted agent', () => {
  it('lets the agent work on disk, where Kandev keeps its files', async () => {
    await writeFile(join(cwd, 'in.txt'), 'on disk');
    const { session, seen } = await connect('kandev');
    await session.prompt('read in.txt\nwrite out.txt done');
    expect(await readFile(join(cwd, 'out.txt'), 'utf8')).toBe('done\n');
    expect(seen.updates.filter((u) => u.kind === 'tool-call').map((u) => u.kind === 'tool-call' && u.toolKind)).toEqual(['read', 'edit']);
  });
});
