// Qwen Code spoken to directly over ACP (no desk, no sandbox), pointed at the Chat Completions stand-in: pins down
// how a user points it at a gateway, and that it ignores NO_PROXY (which decides how it reaches loopback when confined).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { agentChannel } from '../../src/main/core/agents/agent-channel';
import { agentEnvironment } from '../../src/main/core/agents/agent-environment';
import { spawnAgent, type AgentProcess } from '../../src/main/core/agents/agent-process';
import type { AgentSpec } from '../../src/main/core/agents/agent-spec';
import { makeRepo } from '../../src/main/core/test-support/desk-harness';
import { startOpenAiChatStandIn, type OpenAiChatStandIn } from '../../src/main/core/test-support/model-stand-ins/openai-chat';
import { createJsonRpcPeer, JsonRpcError, PeerClosedError, type JsonRpcPeer } from '../../src/shared/json-rpc-peer';
import { answerWithin } from './agent-fixture';
import { QWEN, qwenAgentSpec } from './qwen-desk';
import { describeWithAgent } from './agent-availability';

const ANSWER_MS = 60_000;
const INITIALIZE = { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true }, clientInfo: { name: 'assignment-desk', version: 'test' } };

describeWithAgent(QWEN, 'qwen --acp pointed at an OpenAI-compatible endpoint', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** qwen in a fresh repo and empty home, its environment from `qwenAgentSpec` changed by `adjust`, after initialize. */
  async function startQwen(adjust: (spec: AgentSpec) => AgentSpec): Promise<{ peer: JsonRpcPeer; running: AgentProcess; repo: string; standIn: OpenAiChatStandIn }> {
    const standIn = await startOpenAiChatStandIn({ steps: [{ kind: 'text', text: 'Hello from the stand-in.' }], model: 'qwen-stand-in' });
    cleanups.push(() => standIn.close());
    const root = mkdtempSync(join(tmpdir(), 'qwen-direct-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const home = join(root, 'home');
    mkdirSync(home);
    const repo = makeRepo(root);
    const spec = adjust(qwenAgentSpec(home, standIn, { confined: false }));
    const running = await spawnAgent({ command: spec.command, args: spec.args, cwd: repo, env: agentEnvironment(process.env, spec) });
    cleanups.push(() => running.stop());
    const peer = createJsonRpcPeer(agentChannel(running.child.stdout, running.child.stdin));
    void running.exited.then((exit) => peer.close(new PeerClosedError(`qwen exited (${exit.signal ?? exit.code}): ${running.recentLog()}`)));
    await answerWithin(peer.request('initialize', INITIALIZE), ANSWER_MS, 'initialize', running.recentLog);
    return { peer, running, repo, standIn };
  }

  async function prompt(peer: JsonRpcPeer, running: AgentProcess, sessionId: string): Promise<unknown> {
    return answerWithin(peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Say hello.' }] }).catch((error: unknown) => error), ANSWER_MS, 'session/prompt', running.recentLog);
  }

  it('opens a session on the gateway\'s model from OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL alone, and answers from it', async () => {
    const { peer, running, repo, standIn } = await startQwen((spec) => spec);
    const session = await answerWithin(peer.request('session/new', { cwd: repo, mcpServers: [] }), ANSWER_MS, 'session/new', running.recentLog) as { sessionId: string; models?: { currentModelId?: string } };
    expect(session.models?.currentModelId).toContain('qwen-stand-in');

    expect(await prompt(peer, running, session.sessionId)).toEqual({ stopReason: 'end_turn' });
    expect(standIn.requests[0]).toMatchObject({ path: '/v1/chat/completions', headers: { authorization: 'Bearer sk-stand-in' }, body: { model: 'qwen-stand-in', stream: true } });
  });

  it('sends its model requests to the proxy it is given even when NO_PROXY names the endpoint\'s host', async () => {
    // The isolated environment's proxy on a closed port, with NO_PROXY=localhost,127.0.0.1,::1.
    const { peer, running, repo, standIn } = await startQwen((spec) => ({ ...spec, env: { ...spec.env, HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9' } }));
    const session = await answerWithin(peer.request('session/new', { cwd: repo, mcpServers: [] }), ANSWER_MS, 'session/new', running.recentLog) as { sessionId: string };

    const failure = await prompt(peer, running, session.sessionId);
    expect(failure).toBeInstanceOf(JsonRpcError);
    expect(failure).toMatchObject({ message: 'Internal error', data: { details: 'Connection error.' } });
    expect(standIn.requests).toEqual([]);
  });
});
