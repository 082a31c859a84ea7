// The scripted agent process in the standard (ACP) dialect, driven by the SDK's client: handshake, messages,
// plans, file tools (client file system or disk) and shell commands (client terminal or own child).
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestResources, connectAcpClient, messages, promptTurn, toolTexts } from './scripted-agent-harness';

const resources = new TestResources();
let cwd: string;

beforeEach(async () => {
  cwd = await resources.tempDir();
});
afterEach(() => resources.cleanup());

describe('scripted agent, standard dialect: conversation', () => {
  it('introduces itself at initialize as a protocol v1 agent without session loading or auth', async () => {
    const { initializeResponse } = await connectAcpClient(resources, cwd);
    expect(initializeResponse).toMatchObject({
      protocolVersion: 1,
      agentInfo: { name: 'scripted-agent', title: 'Scripted agent', version: '0.1.0' },
      authMethods: [],
    });
    expect(initializeResponse.agentCapabilities?.loadSession ?? false).toBe(false);
  });

  it('says, thinks and plans in the order the script lists, then ends the turn', async () => {
    const session = await (await connectAcpClient(resources, cwd)).newSession();
    const turn = await promptTurn(session, 'say Hello\\nthere\nthink Pondering\nplan Read ; Fix;Test\nJust a remark');
    expect(turn.stopReason).toBe('end_turn');
    expect(turn.updates).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello\nthere' }, messageId: expect.any(String) },
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Pondering' } },
      {
        sessionUpdate: 'plan',
        entries: ['Read', 'Fix', 'Test'].map((content) => ({ content, priority: 'medium', status: 'pending' })),
      },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Just a remark' }, messageId: expect.any(String) },
    ]);
  });

  it('serves several sessions, each with consecutive prompts', async () => {
    const acp = await connectAcpClient(resources, cwd);
    const first = await acp.newSession();
    const second = await acp.newSession();
    expect(first.sessionId).not.toBe(second.sessionId);
    expect(messages(await promptTurn(first, 'say one'))).toEqual(['one']);
    expect(messages(await promptTurn(second, 'say two'))).toEqual(['two']);
    expect(messages(await promptTurn(first, 'say three'))).toEqual(['three']);
  });
});

describe('scripted agent, standard dialect: files', () => {
  it('writes a new file, creating its folders, and reports the edit as a diff from nothing', async () => {
    const session = await (await connectAcpClient(resources, cwd)).newSession();
    const turn = await promptTurn(session, 'write notes/a.txt Hello');
    const path = join(cwd, 'notes/a.txt');
    expect(await readFile(path, 'utf8')).toBe('Hello\n');
    const [call, done] = turn.updates;
    expect(call).toMatchObject({
      sessionUpdate: 'tool_call',
      title: 'Write notes/a.txt',
      kind: 'edit',
      status: 'pending',
      locations: [{ path }],
    });
    expect(done).toMatchObject({
      sessionUpdate: 'tool_call_update',
      status: 'completed',
      content: [{ type: 'diff', path, oldText: null, newText: 'Hello\n' }],
    });
    expect(done).toMatchObject({ toolCallId: (call as { toolCallId: string }).toolCallId });
  });

  it('appends a line to an existing file and shows the old and new text', async () => {
    await writeFile(join(cwd, 'log.txt'), 'first\n');
    const session = await (await connectAcpClient(resources, cwd)).newSession();
    const turn = await promptTurn(session, 'append log.txt second');
    expect(await readFile(join(cwd, 'log.txt'), 'utf8')).toBe('first\nsecond\n');
    expect(turn.updates[1]).toMatchObject({
      status: 'completed',
      content: [{ type: 'diff', oldText: 'first\n', newText: 'first\nsecond\n' }],
    });
  });

  it('deletes a file as a delete tool call whose diff ends empty', async () => {
    await writeFile(join(cwd, 'old.txt'), 'bye\n');
    const session = await (await connectAcpClient(resources, cwd)).newSession();
    const turn = await promptTurn(session, 'delete old.txt');
    expect(existsSync(join(cwd, 'old.txt'))).toBe(false);
    expect(turn.updates[0]).toMatchObject({ sessionUpdate: 'tool_call', kind: 'delete', title: 'Delete old.txt' });
    expect(turn.updates[1]).toMatchObject({ status: 'completed', content: [{ type: 'diff', oldText: 'bye\n', newText: '' }] });
  });

  it('reads a file given by absolute path and returns its text as the tool content', async () => {
    const elsewhere = await resources.tempDir();
    await writeFile(join(elsewhere, 'r.txt'), 'contents\n');
    const session = await (await connectAcpClient(resources, cwd)).newSession();
    const turn = await promptTurn(session, `read ${join(elsewhere, 'r.txt')}`);
    expect(turn.updates[0]).toMatchObject({ kind: 'read', locations: [{ path: join(elsewhere, 'r.txt') }] });
    expect(turn.updates[1]).toMatchObject({
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'contents\n' } }],
    });
  });

  it('works on disk without asking the client when it offered no file system', async () => {
    const acp = await connectAcpClient(resources, cwd);
    await promptTurn(await acp.newSession(), 'write a.txt x\nread a.txt');
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('x\n');
    expect(acp.calls).toEqual([]);
  });

  it('reads and writes through the client when it offered its file system', async () => {
    await mkdir(join(cwd, 'notes'));
    const acp = await connectAcpClient(resources, cwd, { fs: { readTextFile: true, writeTextFile: true } });
    const session = await acp.newSession();
    const turn = await promptTurn(session, 'write notes/a.txt one\nappend notes/a.txt two\nread notes/a.txt');
    const path = join(cwd, 'notes/a.txt');
    expect(acp.calls.map((call) => call.method)).toEqual([
      'fs/read_text_file', 'fs/write_text_file', 'fs/read_text_file', 'fs/write_text_file', 'fs/read_text_file',
    ]);
    expect(acp.calls[3]?.params).toEqual({ sessionId: session.sessionId, path, content: 'one\ntwo\n' });
    expect(turn.updates.at(-1)).toMatchObject({ content: [{ type: 'content', content: { text: 'one\ntwo\n' } }] });
  });

  it('reports a write the client refuses as a failed tool call and carries on with the script', async () => {
    const acp = await connectAcpClient(resources, cwd, { fs: { writeTextFile: true }, refuseWrites: 'read-only workspace' });
    const turn = await promptTurn(await acp.newSession(), 'write a.txt x\nsay still here');
    expect(turn.stopReason).toBe('end_turn');
    expect(turn.updates[1]).toMatchObject({
      status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: expect.stringContaining('read-only workspace') } }],
    });
    expect(messages(turn)).toEqual([expect.stringMatching(/^write failed: .*read-only workspace/), 'still here']);
    expect(existsSync(join(cwd, 'a.txt'))).toBe(false);
  });

  it('fails reading a file that does not exist and says why', async () => {
    const session = await (await connectAcpClient(resources, cwd)).newSession();
    const turn = await promptTurn(session, 'read missing.txt');
    expect(turn.updates[1]).toMatchObject({ status: 'failed' });
    expect(messages(turn)).toEqual(['read failed: missing.txt does not exist']);
  });
});

describe('scripted agent, standard dialect: shell commands', () => {
  it('runs a command as its own child in the session cwd when the client has no terminal, capturing stdout and stderr', async () => {
    const acp = await connectAcpClient(resources, cwd);
    const turn = await promptTurn(await acp.newSession(), 'run pwd; echo err 1>&2');
    expect(turn.updates[0]).toMatchObject({ sessionUpdate: 'tool_call', kind: 'execute', title: 'pwd; echo err 1>&2' });
    expect(turn.updates[1]).toMatchObject({ status: 'completed', content: [{ type: 'content', content: { type: 'text' } }] });
    // The two pipes are read separately, so only the set of lines is certain, not their order.
    const [output = ''] = toolTexts(turn.updates[1]);
    expect(output.split('\n').sort()).toEqual(['', cwd, 'err'].sort());
    expect(acp.calls).toEqual([]);
  });

  it('marks a command that exits non-zero as failed and goes on', async () => {
    const session = await (await connectAcpClient(resources, cwd)).newSession();
    const turn = await promptTurn(session, 'run echo nope; exit 3\nsay after');
    expect(turn.updates[1]).toMatchObject({ status: 'failed' });
    expect(messages(turn)).toEqual(['run failed: exit code 3', 'after']);
    expect(turn.stopReason).toBe('end_turn');
  });

  it('runs a command in a client terminal when offered and shows that terminal in the tool call', async () => {
    const acp = await connectAcpClient(resources, cwd, { terminal: true });
    const session = await acp.newSession();
    const turn = await promptTurn(session, 'run echo via terminal');
    expect(acp.calls.map((call) => call.method)).toEqual([
      'terminal/create', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release',
    ]);
    expect(acp.calls[0]?.params).toEqual({ sessionId: session.sessionId, command: 'sh', args: ['-c', 'echo via terminal'], cwd });
    expect(turn.updates.at(-1)).toMatchObject({ status: 'completed', content: [{ type: 'terminal', terminalId: 'term-1' }] });
  });
});
