// The scripted agent process in the standard (ACP) dialect: what stops, pauses or breaks a turn — permission
// requests, questions, sleeps and cancels, failures, crashes — and a flood of output.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestResources, connectAcpClient, messages, promptTurn, readTurn } from './scripted-agent-harness';

const resources = new TestResources();
let cwd: string;

beforeEach(async () => {
  cwd = await resources.tempDir();
});
afterEach(() => resources.cleanup());

describe('scripted agent, standard dialect: asking the user', () => {
  it('asks permission with allow and reject options and goes on when allowed', async () => {
    const acp = await connectAcpClient(resources, cwd);
    const session = await acp.newSession();
    const turn = await promptTurn(session, 'ask May I push?\nsay pushed');
    expect(acp.calls[0]).toMatchObject({
      method: 'session/request_permission',
      params: {
        sessionId: session.sessionId,
        toolCall: { title: 'May I push?', kind: 'other', status: 'pending' },
        options: [
          { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
          { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
        ],
      },
    });
    expect(messages(turn)).toEqual(['Allowed: May I push?', 'pushed']);
    expect(turn.stopReason).toBe('end_turn');
  });

  it('ends the turn normally, skipping the rest, when permission is rejected', async () => {
    const acp = await connectAcpClient(resources, cwd, {
      permission: () => ({ outcome: { outcome: 'selected', optionId: 'reject' } }),
    });
    const turn = await promptTurn(await acp.newSession(), 'ask May I push?\nsay pushed');
    expect(messages(turn)).toEqual(['Rejected: May I push?']);
    expect(turn.stopReason).toBe('end_turn');
  });

  it('ends the turn as cancelled when the permission request is cancelled', async () => {
    const acp = await connectAcpClient(resources, cwd, { permission: () => ({ outcome: { outcome: 'cancelled' } }) });
    const turn = await promptTurn(await acp.newSession(), 'ask May I push?\nsay pushed');
    expect(messages(turn)).toEqual([]);
    expect(turn.stopReason).toBe('cancelled');
  });

  it('asks permission for a delete, with its kind and path, before touching the file', async () => {
    await writeFile(join(cwd, 'old.txt'), 'bye\n');
    const acp = await connectAcpClient(resources, cwd, {
      permission: async () => {
        // Asked before the deletion: the file is still there while the client decides.
        expect(existsSync(join(cwd, 'old.txt'))).toBe(true);
        return { outcome: { outcome: 'selected', optionId: 'allow' } };
      },
    });
    const session = await acp.newSession();
    const turn = await promptTurn(session, 'delete old.txt');
    const toolCallId = turn.updates[0]?.sessionUpdate === 'tool_call' ? turn.updates[0].toolCallId : undefined;
    expect(acp.calls[0]).toMatchObject({
      method: 'session/request_permission',
      params: { sessionId: session.sessionId, toolCall: { toolCallId, title: 'Delete old.txt', kind: 'delete', locations: [{ path: join(cwd, 'old.txt') }] } },
    });
    expect(existsSync(join(cwd, 'old.txt'))).toBe(false);
    expect(turn.updates[1]).toMatchObject({ status: 'completed' });
  });

  it('keeps the file and reports the delete failed when permission is rejected, and goes on', async () => {
    await writeFile(join(cwd, 'old.txt'), 'bye\n');
    const acp = await connectAcpClient(resources, cwd, { permission: () => ({ outcome: { outcome: 'selected', optionId: 'reject' } }) });
    const turn = await promptTurn(await acp.newSession(), 'delete old.txt\nsay after');
    expect(await readFile(join(cwd, 'old.txt'), 'utf8')).toBe('bye\n');
    expect(turn.updates[1]).toMatchObject({ status: 'failed', content: [{ type: 'content', content: { text: 'rejected by the client' } }] });
    expect(messages(turn)).toEqual(['delete failed: rejected by the client', 'after']);
    expect(turn.stopReason).toBe('end_turn');
  });

  it('asks permission for a move with both paths, and moves only when allowed', async () => {
    await writeFile(join(cwd, 'a.txt'), 'moving\n');
    const acp = await connectAcpClient(resources, cwd, { permission: () => ({ outcome: { outcome: 'cancelled' } }) });
    const refused = await promptTurn(await acp.newSession(), 'move a.txt docs/b.txt');
    expect(acp.calls[0]).toMatchObject({
      method: 'session/request_permission',
      params: { toolCall: { title: 'Move a.txt to docs/b.txt', kind: 'move', locations: [{ path: join(cwd, 'a.txt') }, { path: join(cwd, 'docs/b.txt') }] } },
    });
    expect(messages(refused)).toEqual(['move failed: rejected by the client']);
    expect(existsSync(join(cwd, 'a.txt'))).toBe(true);

    const allowing = await connectAcpClient(resources, cwd);
    const moved = await promptTurn(await allowing.newSession(), 'move a.txt docs/b.txt');
    expect(moved.updates[1]).toMatchObject({ status: 'completed' });
    expect(existsSync(join(cwd, 'a.txt'))).toBe(false);
    expect(await readFile(join(cwd, 'docs/b.txt'), 'utf8')).toBe('moving\n');
  });

  it('asks permission for an ask-run command with the program and arguments it starts, and skips it when rejected', async () => {
    const acp = await connectAcpClient(resources, cwd, { permission: () => ({ outcome: { outcome: 'selected', optionId: 'reject' } }) });
    const turn = await promptTurn(await acp.newSession(), 'ask-run touch ran.txt');
    expect(acp.calls[0]).toMatchObject({
      method: 'session/request_permission',
      params: { toolCall: { title: 'touch ran.txt', kind: 'execute', rawInput: { command: 'sh', args: ['-c', 'touch ran.txt'] } } },
    });
    expect(messages(turn)).toEqual(['run failed: rejected by the client']);
    expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
  });

  it('asks a question as a form elicitation and says the answer', async () => {
    const acp = await connectAcpClient(resources, cwd, {
      elicitation: () => ({ action: 'accept', content: { answer: 'main' } }),
    });
    const session = await acp.newSession();
    const turn = await promptTurn(session, 'question Which branch?\nsay done');
    expect(acp.calls[0]).toEqual({
      method: 'elicitation/create',
      params: {
        sessionId: session.sessionId,
        mode: 'form',
        message: 'Which branch?',
        requestedSchema: {
          type: 'object',
          properties: { answer: { type: 'string', title: 'Which branch?' } },
          required: ['answer'],
        },
      },
    });
    expect(messages(turn)).toEqual(['Answer: main', 'done']);
  });

  it('says there was no answer when the question is declined, and goes on', async () => {
    const acp = await connectAcpClient(resources, cwd, { elicitation: () => ({ action: 'decline' }) });
    const turn = await promptTurn(await acp.newSession(), 'question Which branch?\nsay done');
    expect(messages(turn)).toEqual(['No answer (decline)', 'done']);
  });
});

describe('scripted agent, standard dialect: cancelling, failing, crashing', () => {
  it('stops a sleep at once on session/cancel and reports the turn cancelled', async () => {
    const acp = await connectAcpClient(resources, cwd);
    const session = await acp.newSession();
    session.prompt('say sleeping\nsleep 20000\nsay woke').catch(() => {});
    expect(await session.nextUpdate()).toMatchObject({ kind: 'session_update', update: { content: { text: 'sleeping' } } });
    const cancelledAt = Date.now();
    await acp.agent.notify('session/cancel', { sessionId: session.sessionId });
    const turn = await readTurn(session);
    expect(turn.stopReason).toBe('cancelled');
    expect(Date.now() - cancelledAt).toBeLessThan(500);
    expect(messages(turn)).toEqual([]);
  });

  it('stops waiting for a permission answer when the turn is cancelled', async () => {
    let asked: () => void = () => {};
    const askedPromise = new Promise<void>((resolve) => (asked = resolve));
    const acp = await connectAcpClient(resources, cwd, {
      permission: () => {
        asked();
        return new Promise(() => {});
      },
    });
    const session = await acp.newSession();
    session.prompt('ask Go?\nsay went').catch(() => {});
    await askedPromise;
    await acp.agent.notify('session/cancel', { sessionId: session.sessionId });
    const turn = await readTurn(session);
    expect(turn.stopReason).toBe('cancelled');
    expect(messages(turn)).toEqual([]);
  });

  it('can run another prompt in the session after a cancelled one', async () => {
    const acp = await connectAcpClient(resources, cwd);
    const session = await acp.newSession();
    session.prompt('say sleeping\nsleep 20000').catch(() => {});
    await session.nextUpdate();
    await acp.agent.notify('session/cancel', { sessionId: session.sessionId });
    expect((await readTurn(session)).stopReason).toBe('cancelled');
    expect(messages(await promptTurn(session, 'say again'))).toEqual(['again']);
  });

  it('fails the prompt with a JSON-RPC error carrying the script message, after what came before', async () => {
    const session = await (await connectAcpClient(resources, cwd)).newSession();
    const turn = await promptTurn(session, 'say before\nfail Tests are red\nsay after');
    expect(messages(turn)).toEqual(['before']);
    expect(turn.error).toMatchObject({ message: 'Tests are red' });
  });

  it('exits the process at once with the crash code', async () => {
    const acp = await connectAcpClient(resources, cwd);
    const session = await acp.newSession();
    session.prompt('say going down\ncrash 7\nsay never').catch(() => {});
    expect(await acp.process.exited).toBe(7);
  });

  it('exits with code 1 on a bare crash', async () => {
    const acp = await connectAcpClient(resources, cwd);
    (await acp.newSession()).prompt('crash').catch(() => {});
    expect(await acp.process.exited).toBe(1);
  });
});

describe('scripted agent, standard dialect: floods', () => {
  it('delivers exactly N numbered message chunks for flood N, then ends the turn', async () => {
    const session = await (await connectAcpClient(resources, cwd)).newSession();
    const turn = await promptTurn(session, 'flood 5000');
    const chunks = messages(turn);
    expect(chunks).toHaveLength(5000);
    expect(chunks[0]).toBe('flood 1\n');
    expect(chunks[4999]).toBe('flood 5000\n');
    expect(turn.stopReason).toBe('end_turn');
  });
});
