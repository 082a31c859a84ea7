// The scripted agent process in the Kandev dialect, driven with raw ndjson lines as Kandev's backend would.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KandevLineClient, TestResources } from './scripted-agent-harness';

const resources = new TestResources();
let cwd: string;

beforeEach(async () => {
  cwd = await resources.tempDir();
});
afterEach(() => resources.cleanup());

const byId = (id: number) => (message: Record<string, unknown>) => message.id === id && !('method' in message);
const isUpdate = (type: string) => (message: Record<string, unknown>) =>
  message.method === 'session/update' && (message.params as { type?: string }).type === type;

async function startSession(): Promise<{ kandev: KandevLineClient; sessionId: string }> {
  const kandev = new KandevLineClient(resources.spawnAgent(cwd, ['--dialect', 'kandev']));
  kandev.send({ id: 1, method: 'initialize', params: { protocolVersion: '1.0', clientInfo: { name: 'kandev', version: '0.1.0' } } });
  await kandev.waitFor(byId(1));
  kandev.send({ id: 2, method: 'session/new', params: {} });
  const created = await kandev.waitFor(byId(2));
  return { kandev, sessionId: (created.result as { sessionId: string }).sessionId };
}

describe('scripted agent, Kandev dialect', () => {
  it('answers initialize with protocol version "1.0", its server info and capabilities', async () => {
    const kandev = new KandevLineClient(resources.spawnAgent(cwd, ['--dialect', 'kandev']));
    kandev.send({ id: 1, method: 'initialize', params: { protocolVersion: '1.0' } });
    expect(await kandev.waitFor(byId(1))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        protocolVersion: '1.0',
        serverInfo: { name: 'scripted-agent', version: '0.1.0' },
        capabilities: { streaming: true, sessionResumption: false },
      },
    });
  });

  it('accepts a prompt at once, then streams content and tool calls and ends with complete', async () => {
    const { kandev, sessionId } = await startSession();
    kandev.send({ id: 3, method: 'session/prompt', params: { message: 'say Working\nthink hmm\nwrite out/a.txt hi\nrun exit 2' } });
    await kandev.waitFor(isUpdate('complete'));
    const acceptedAt = kandev.received.findIndex(byId(3));
    const firstUpdateAt = kandev.received.findIndex((message) => message.method === 'session/update');
    expect(kandev.received[acceptedAt]).toMatchObject({ result: { accepted: true } });
    expect(acceptedAt).toBeLessThan(firstUpdateAt);

    const updates = kandev.updates();
    expect(updates.every((update) => update.sessionId === sessionId)).toBe(true);
    expect(updates.map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'content', data: { text: 'Working' } },
      { type: 'content', data: { text: 'hmm', thought: true } },
      { type: 'toolCall', data: { toolCallId: expect.any(String), toolName: 'write_file', status: 'running', args: { path: 'out/a.txt' } } },
      { type: 'toolCall', data: { toolCallId: expect.any(String), toolName: 'write_file', status: 'completed', args: { path: 'out/a.txt' } } },
      { type: 'toolCall', data: { toolCallId: expect.any(String), toolName: 'run_command', status: 'running', args: { command: 'exit 2' } } },
      {
        type: 'toolCall',
        data: { toolCallId: expect.any(String), toolName: 'run_command', status: 'failed', args: { command: 'exit 2' }, result: '', error: 'exit code 2' },
      },
      { type: 'content', data: { text: 'run failed: exit code 2' } },
      { type: 'complete', data: { sessionId, success: true, summary: 'Ran 4 script lines' } },
    ]);
    expect(await readFile(join(cwd, 'out/a.txt'), 'utf8')).toBe('hi\n');
  });

  it('reports fail as an error update with the script message, and no complete', async () => {
    const { kandev } = await startSession();
    kandev.send({ id: 3, method: 'session/prompt', params: { message: 'fail Build broke\nsay after' } });
    const error = await kandev.waitFor(isUpdate('error'));
    expect((error.params as { data: unknown }).data).toEqual({ message: 'Build broke' });
    kandev.send({ id: 4, method: 'session/prompt', params: { message: 'say next' } });
    await kandev.waitFor(isUpdate('complete'));
    expect(kandev.updates().map((update) => update.type)).toEqual(['error', 'content', 'complete']);
  });

  it('stops the running turn on session/cancel and completes it as cancelled', async () => {
    const { kandev, sessionId } = await startSession();
    kandev.send({ id: 3, method: 'session/prompt', params: { message: 'say sleeping\nsleep 20000\nsay woke' } });
    await kandev.waitFor(isUpdate('content'));
    kandev.send({ method: 'session/cancel', params: { reason: 'User requested cancellation' } });
    const complete = await kandev.waitFor(isUpdate('complete'));
    expect((complete.params as { data: unknown }).data).toEqual({ sessionId, success: false, cancelled: true });
    expect(kandev.updates().filter((update) => update.type === 'content')).toHaveLength(1);
  });

  it('answers a malformed line with a parse error and an unknown method with method-not-found, and keeps serving', async () => {
    const { kandev } = await startSession();
    kandev.sendLine('{not json');
    kandev.send({ id: 3, method: 'session/fly', params: {} });
    kandev.send({ id: 4, method: 'session/prompt', params: { message: 'say still here' } });
    expect(await kandev.waitFor((message) => message.id === null)).toMatchObject({ error: { code: -32700 } });
    expect(await kandev.waitFor(byId(3))).toMatchObject({ error: { code: -32601 } });
    await kandev.waitFor(isUpdate('complete'));
    expect(kandev.updates()[0]?.data).toEqual({ text: 'still here' });
  });

  it('asks permission with the same session/request_permission request as the standard dialect', async () => {
    const { kandev, sessionId } = await startSession();
    kandev.send({ id: 3, method: 'session/prompt', params: { message: 'ask Deploy?\nsay deployed' } });
    const request = await kandev.waitFor((message) => message.method === 'session/request_permission');
    expect(request.params).toMatchObject({ sessionId, toolCall: { title: 'Deploy?', kind: 'other', status: 'pending' } });
    kandev.send({ id: request.id as number, result: { outcome: { outcome: 'selected', optionId: 'allow' } } });
    await kandev.waitFor(isUpdate('complete'));
    expect(kandev.updates().map((update) => update.data.text).filter(Boolean)).toEqual(['Allowed: Deploy?', 'deployed']);
  });

  it('asks permission before a delete, with the tool kind and path, and keeps the file when rejected', async () => {
    await writeFile(join(cwd, 'keep.txt'), 'stay\n');
    const { kandev } = await startSession();
    kandev.send({ id: 3, method: 'session/prompt', params: { message: 'delete keep.txt' } });
    const request = await kandev.waitFor((message) => message.method === 'session/request_permission');
    expect(request.params).toMatchObject({ toolCall: { title: 'Delete keep.txt', kind: 'delete', locations: [{ path: join(cwd, 'keep.txt') }] } });
    kandev.send({ id: request.id as number, result: { outcome: { outcome: 'selected', optionId: 'reject' } } });
    await kandev.waitFor(isUpdate('complete'));
    expect(await readFile(join(cwd, 'keep.txt'), 'utf8')).toBe('stay\n');
    expect(kandev.updates().map((update) => update.data.error).filter(Boolean)).toEqual(['rejected by the client']);
  });
});
