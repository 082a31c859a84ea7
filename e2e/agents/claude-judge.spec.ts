// A real vendor agent as the judge of a task's attempts: claude-agent-acp against an Anthropic stand-in whose scripted
// answer ends with the RECOMMEND line, judging two attempts by the scripted agent; with `choose: "judge"` the desk keeps
// the attempt it recommends.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { destroyDesk, makeRepo, scriptedAgent, startDesk, taskEvents, type Desk } from '../../src/main/core/test-support/desk-harness';
import { startAnthropicStandIn, type AnthropicStandIn } from '../../src/main/core/test-support/model-stand-ins/anthropic-messages';
import { describeWithAgent } from './agent-availability';
import { isolatedAgentSpec, REAL_AGENTS, type RealAgent } from './real-agents';

const agent = REAL_AGENTS.find((candidate) => candidate.id === 'claude-agent-acp') as RealAgent;

let restoreGit: () => void = () => {};
let desk: (Desk & { root: string }) | undefined;
let model: AnthropicStandIn | undefined;
beforeAll(() => { restoreGit = isolateGitConfig(); });
afterAll(() => restoreGit());
afterEach(async () => {
  await destroyDesk(desk);
  await model?.close();
});

describeWithAgent(agent, `${agent.id} as the judge of attempts, against a stand-in model`, () => {
  it('reads the attempts in its prompt, recommends one in its answer, and the desk keeps it with choose judge', async () => {
    const root = mkdtempSync(join(tmpdir(), 'desk-claude-judge-'));
    model = await startAnthropicStandIn({ steps: [{ kind: 'text', text: 'Both write the file; the second also ends it with a newline.\n\n**RECOMMEND:** attempt-2 - it ends the file with a newline' }] });
    const home = join(root, 'home');
    mkdirSync(home);
    const isolated = isolatedAgentSpec(agent, home);
    desk = await startDesk({
      reuse: { root, repo: makeRepo(root), dataDir: join(root, 'data') },
      agents: [scriptedAgent(), { ...isolated, id: 'claude-judge', name: 'Claude judge', env: { ...isolated.env, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-ant-stand-in' } }],
      policy: { version: 1, defaults: { capabilities: { edit: 'allow', execute: 'allow' }, network: [model.host] } },
    });
    const submitted = await desk.api('POST', '/', {
      id: 'judged', prompt: 'write hello.txt hello', attempts: [{}, {}], judge: 'claude-judge', choose: 'judge',
    });
    expect(submitted.status).toBe(202);
    await desk.waitForStatus('judged', ['completed', 'awaiting-input', 'error'], 180_000);
    const task = (await desk.api('GET', '/tasks/judged')).json;
    const judge = (await desk.api('GET', '/tasks/judged~judge')).json;
    expect(task.judgeNote, `${judge.errorMessage ?? ''}`).toBeUndefined();
    expect(task.recommendation).toEqual({ n: 2, reason: 'it ends the file with a newline', by: 'claude-judge' });
    expect(task.status).toBe('completed');
    expect(task.commit).toBe(task.attempts[1].commit);
    // The model was given both attempts' diffs and the task.
    const asked = JSON.stringify(model.requests.filter((request) => request.answeredWith === 'step').map((request) => request.body));
    expect(asked).toContain('## Attempt 1 (attempt-1)');
    expect(asked).toContain('## Attempt 2 (attempt-2)');
    expect(asked).toContain('+++ b/hello.txt');
    expect(asked).toContain('write hello.txt hello');
    expect(model.problems).toEqual([]);
    expect(model.remaining()).toBe(0);
    expect(judge).toMatchObject({ judgeOf: 'judged', status: 'completed' });
    expect(judge.commit).toBeUndefined();
    const said = (await taskEvents(desk, 'judged')).flatMap((event) => (event.type === 'log' ? [event.text] : []));
    expect(said).toContain('Kept attempt 2, as the judge (claude-judge) chose: it ends the file with a newline');
  });
});
