// A real Claude agent (claude-agent-acp) addresses review feedback through a real desk: its model is the Anthropic
// stand-in, the forge is the GitHub stand-in, and a bare repository is the push target. The follow-up turn's prompt
// reaches the model with the comment verbatim, the agent's edit is committed and pushed to the pull request, the
// thread gets a reply, and the forge token reaches neither the agent nor its model.
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { git } from '../../src/main/core/git/git-test-fixture';
import { waitForEvent } from '../../src/main/core/test-support/desk-harness';
import { FORGE_DESK_USER, FORGE_TEST_TOKEN, startForgeStandIn, type ForgeStandIn } from '../../src/main/core/test-support/forge-stand-in';
import type { ModelStep } from '../../src/main/core/test-support/model-stand-ins/model-script';
import { describeWithAgent } from './agent-availability';
import { CLAUDE_AGENTS, claudeRuns, logLines } from './claude-desk';

const agent = CLAUDE_AGENTS.find((candidate) => candidate.id === 'claude-agent-acp') ?? CLAUDE_AGENTS[0]!;

/**
 * Turn 1 writes greeting.txt; turn 2 (addressing the review) reads it, then writes it again as the reviewer asked (Claude
 * Code refuses to overwrite a file its session has not read, and a resumed session may not count turn 1's write).
 */
const STEPS: readonly ModelStep[] = [
  { kind: 'tool', tool: ['Write'], input: { file_path: '{cwd}/greeting.txt', content: 'hello\n' } },
  { kind: 'text', text: 'Wrote greeting.txt.' },
  { kind: 'tool', tool: ['Read'], input: { file_path: '{cwd}/greeting.txt' } },
  { kind: 'tool', tool: ['Write'], input: { file_path: '{cwd}/greeting.txt', content: 'Hello, world!\n' } },
  { kind: 'text', text: 'Capitalised the greeting and added the world, as the review asked.' },
];

describeWithAgent(agent, `${agent.id} addresses review feedback through the desk`, () => {
  const open = claudeRuns(agent);
  let forge: ForgeStandIn | undefined;
  afterEach(async () => {
    await forge?.close();
    forge = undefined;
  });

  it('gets the comment and the failed check in its prompt, and its fix is pushed to the pull request with a reply', async () => {
    const remote: { bare?: string } = {};
    forge = await startForgeStandIn('github', 'acme/widgets', { gitDir: () => remote.bare });
    const run = await open({
      steps: STEPS,
      deskEnv: { GH_TOKEN: FORGE_TEST_TOKEN, GITHUB_API_URL: forge.apiBase },
      files: { '.desk/config.json': JSON.stringify({ forge: { replyWhenAddressed: true } }) },
    });
    const { desk } = run;
    const bare = join(desk.root, 'remote.git');
    remote.bare = bare;
    git(desk.root, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
    git(desk.repo, 'remote', 'add', 'origin', 'https://github.com/acme/widgets.git');
    git(desk.repo, 'remote', 'set-url', '--push', 'origin', bare);

    await run.submit('greet', 'Write greeting.txt saying hello.');
    const first = await desk.waitForStatus('greet', ['completed', 'error', 'cancelled'], 60_000);
    expect(first, logLines(await run.events('greet')).join('\n')).toBe('completed');
    const before = (await desk.api('GET', '/tasks/greet')).json;
    expect((await desk.api('POST', '/api/tasks/greet/pull-request')).status).toBe(201);

    const comment = 'Capitalise the greeting and greet the world: "Hello, world!"';
    forge.comment(1, { author: 'ana', kind: 'line', path: 'greeting.txt', line: 1, body: comment });
    forge.setChecks([{ name: 'spelling', status: 'completed', conclusion: 'failure', output: { title: 'Lower-case greeting', summary: 'greeting.txt: "hello" should start with a capital' } }]);
    expect((await desk.api('POST', '/api/tasks/greet/pull-request/refresh')).status).toBe(200);
    // The turn's end is handled (pushed, or given up) once `addressing` is gone from a finished task.
    const handled = waitForEvent(desk, 'greet', ({ event }) => event.type === 'task' && event.task.status !== 'queued' && event.task.status !== 'in-progress'
      && event.task.pullRequest?.addressing === undefined && (event.task.status !== 'completed' || Boolean(event.task.pullRequest?.feedback?.comments[0]?.addressedIn)), 120_000);
    const address = await desk.api('POST', '/api/tasks/greet/pull-request/address', { note: 'Keep the trailing newline.' });
    expect(address.status, address.text).toBe(202);
    await handled.catch(async (error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; the task's log:\n${logLines(await run.events('greet')).join('\n')}`);
    });

    const after = (await desk.api('GET', '/tasks/greet')).json;
    expect(after.status, logLines(await run.events('greet')).join('\n')).toBe('completed');
    expect(after.commit).not.toBe(before.commit);
    expect(git(desk.repo, 'show', `${after.commit}:greeting.txt`)).toBe('Hello, world!');
    expect(git(bare, 'rev-parse', `refs/heads/${before.branch}`)).toBe(after.commit);
    expect(after.pullRequest.headCommit).toBe(after.commit);

    // The follow-up prompt reached the model through the agent: the comment verbatim with its file and line, the check, the note.
    const sent = run.model.requests.map((request) => JSON.stringify(request.body)).join('\n');
    expect(sent).toContain(JSON.stringify(comment).slice(1, -1));
    expect(sent).toContain('greeting.txt, line 1');
    expect(sent).toContain('should start with a capital');
    expect(sent).toContain('Keep the trailing newline.');
    expect(sent).not.toContain(FORGE_TEST_TOKEN);
    expect(JSON.stringify(run.model.requests.map((request) => request.headers))).not.toContain(FORGE_TEST_TOKEN);
    expect(JSON.stringify(await run.events('greet'))).not.toContain(FORGE_TEST_TOKEN);

    expect(forge.comments.filter((reply) => reply.author === FORGE_DESK_USER && reply.body.includes(after.commit))).toHaveLength(1);
  });
});
