// Attempts with a real vendor agent: claude-agent-acp twice, side by side through one desk, each attempt against its own
// Anthropic stand-in (a stand-in answers one conversation's steps in order), each in its own worktree, branch and sandbox.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { git, isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { destroyDesk, makeRepo, scriptedAgent, startDesk, type Desk } from '../../src/main/core/test-support/desk-harness';
import { startAnthropicStandIn, type AnthropicStandIn } from '../../src/main/core/test-support/model-stand-ins/anthropic-messages';
import { describeWithAgent } from './agent-availability';
import { WRITE_RUN_SAY } from './claude-desk';
import { isolatedAgentSpec, REAL_AGENTS, type RealAgent } from './real-agents';

const agent = REAL_AGENTS.find((candidate) => candidate.id === 'claude-agent-acp') as RealAgent;

let restoreGit: () => void = () => {};
let desk: (Desk & { root: string }) | undefined;
const models: AnthropicStandIn[] = [];
beforeAll(() => { restoreGit = isolateGitConfig(); });
afterAll(() => restoreGit());
afterEach(async () => {
  await destroyDesk(desk);
  for (const model of models.splice(0)) await model.close();
});

describeWithAgent(agent, `attempts of ${agent.id} against stand-in models`, () => {
  it('runs two attempts at once, each its own run and branch, and keeps the one answered over HTTP', async () => {
    const root = mkdtempSync(join(tmpdir(), 'desk-claude-attempts-'));
    const specs = [];
    for (const name of ['a', 'b']) {
      const model = await startAnthropicStandIn({ steps: WRITE_RUN_SAY });
      models.push(model);
      const home = join(root, `home-${name}`);
      mkdirSync(home);
      const isolated = isolatedAgentSpec(agent, home);
      specs.push({ ...isolated, id: `claude-${name}`, name: `Claude ${name}`, env: { ...isolated.env, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-ant-stand-in' } });
    }
    desk = await startDesk({
      reuse: { root, repo: makeRepo(root), dataDir: join(root, 'data') },
      agents: [scriptedAgent(), ...specs],
      policy: { version: 1, defaults: { capabilities: { edit: 'allow', execute: 'allow' }, network: models.map((model) => model.host) } },
    });
    const submitted = await desk.api('POST', '/', {
      id: 'both', prompt: 'Write hello.txt, show it with a command, then say what you did.', attempts: [{ agent: 'claude-a' }, { agent: 'claude-b' }],
    });
    expect(submitted.status).toBe(202);
    await desk.waitForStatus('both', ['awaiting-input', 'error'], 120_000);
    const waiting = (await desk.api('GET', '/tasks/both')).json;
    expect(waiting.attempts.map((a: { status: string; errorMessage?: string }) => a.errorMessage ?? a.status)).toEqual(['completed', 'completed']);
    // Each attempt ran at once with its own model: their runs overlapped.
    const [first, second] = await Promise.all([1, 2].map(async (n) => (await desk!.api('GET', `/tasks/both~attempt-${n}`)).json));
    expect(first.startedAt < second.finishedAt && second.startedAt < first.finishedAt).toBe(true);
    expect(first.worktreePath).not.toBe(second.worktreePath);
    for (const attempt of waiting.attempts) expect(git(desk.repo, 'show', `${attempt.commit}:hello.txt`)).toBe('hello from the stand-in');
    expect((await desk.api('POST', '/tasks/both/input', { optionId: 'attempt-2' })).status).toBe(200);
    await desk.waitForStatus('both', 'completed');
    const kept = (await desk.api('GET', '/tasks/both')).json;
    expect(kept).toMatchObject({ agent: 'claude-b', commit: waiting.attempts[1].commit });
  });
});
