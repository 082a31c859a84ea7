// Claude (claude-code-acp 0.16.2 and claude-agent-acp 0.49.0) finishes real work through a real desk, its model stood
// in for by the Anthropic stand-in on 127.0.0.1, as issue 25 asks: default sandbox, empty HOME, the endpoint in the policy.
//
// What the agents do, learnt by talking to them directly (no desk, no sandbox) against the stand-in:
// - Pointing: ANTHROPIC_BASE_URL=http://127.0.0.1:PORT and any ANTHROPIC_API_KEY; no config file is needed. Both
//   start with no ~/.claude and no ~/.claude.json and create them (see "State in HOME" below). The main model is
//   claude-sonnet-4-5 (claude-code-acp) or claude-opus-4-8 (claude-agent-acp); side requests go to claude-haiku-4-5
//   or the main model with `tools: []`: file suggestions, a session title. Claude Code 2.1.44 (inside claude-code-acp)
//   also calls POST /v1/messages/count_tokens, up to eight times before a turn. The stand-in answers both aside.
// - Tools: claude-code-acp offers its own tools over MCP, mcp__acp__{Read,Write,Edit,Bash,BashOutput,KillShell}, beside
//   Claude Code's built-in Task, Glob, Grep, …; its Write goes through ACP fs/write_text_file and its Bash through
//   terminal/create (+ wait_for_exit, output, release), and the Bash tool rejects input without `timeout`.
//   claude-agent-acp offers Claude Code's own Write, Bash, Edit, Read, …: it writes files and runs commands itself
//   (no fs/*, no terminal/*), and the command's output reaches the client in tool_call_update content.
// - Permissions: claude-code-acp sends the tool's kind, locations and diff in `tool_call` and only the toolCallId,
//   title and rawInput in session/request_permission (judging the request needs the earlier tool_call: h/acp).
//   claude-agent-acp repeats kind, content and locations in the request. Claude Code asks for every Write and for
//   commands it does not consider read-only; a read-only command (`ls`, `cat`) runs without a request.
// - State in HOME: both write ~/.claude.json by temp file + rename (~/.claude.json.tmp.<pid>.<time>), lock it with a
//   directory ~/.claude.json.lock (mkdir), and keep backups: claude-code-acp as ~/.claude.json.backup.<time> in HOME,
//   claude-agent-acp in ~/.claude/backups/. When the rename fails, Claude Code falls back to writing the file in place.
//   With CLAUDE_CONFIG_DIR set, the file is $CLAUDE_CONFIG_DIR/.claude.json instead, and ~/.claude/.config.json, when
//   present, is read in its place. Under ~/.claude: projects/, todos/, debug/ (claude-code-acp), sessions/,
//   session-env/, shell-snapshots/ (claude-agent-acp). claude-code-acp also writes ~/.config/git/ignore and ~/.npm/_logs.
// - Model failures: Claude Code retries 429, 529 and 5xx itself (10 times by default, with back-off, reading
//   retry-after); CLAUDE_CODE_MAX_RETRIES lowers that, which a user can set in the agent's entry as well.
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import type { TaskEvent } from '../../src/shared/events';
import { readProcessTable, treeOf } from '../../src/main/core/agents/process-table';
import { waitForEvent } from '../../src/main/core/test-support/desk-harness';
import { CLAUDE_AGENTS, claudeRuns, logLines, WRITE_RUN_SAY } from './claude-desk';
import { describeWithAgent } from './agent-availability';
import type { ModelStep } from '../../src/main/core/test-support/model-stand-ins/model-script';

/** The turn of the "ask" case: its command writes a file, so Claude Code asks for it (a read-only one it runs unasked). */
const WRITE_AND_CHANGE: readonly ModelStep[] = [
  WRITE_RUN_SAY[0]!,
  { kind: 'tool', tool: ['Bash'], input: { command: 'tr a-z A-Z < hello.txt > upper.txt && cat upper.txt', description: 'Upper-case the file', timeout: 60_000 } },
  { kind: 'text', text: 'Wrote hello.txt and upper.txt.' },
];

for (const agent of CLAUDE_AGENTS) describeWithAgent(agent, `${agent.id} through the desk against a stand-in model`, () => {
  const open = claudeRuns(agent);

  it('completes a task that writes a file and runs a command, with no question asked, in under 30 s', async () => {
    const run = await open({ steps: WRITE_RUN_SAY });
    await run.submit('hello');

    const status = await run.desk.waitForStatus('hello', ['completed', 'error', 'cancelled'], 30_000);
    const events = await run.events('hello');
    expect(status, logLines(events).join('\n')).toBe('completed');
    const { commit } = (await run.desk.api('GET', '/tasks/hello')).json;
    expect(execFileSync('git', ['show', `${commit}:hello.txt`], { cwd: run.desk.repo, encoding: 'utf8' })).toBe('hello from the stand-in\n');
    expect(events.filter((event) => event.type === 'question-opened')).toEqual([]);
    expect(toolKinds(events)).toEqual(expect.arrayContaining(['edit', 'execute']));
    expect(diffs(events)).toContainEqual(expect.objectContaining({ path: expect.stringMatching(/hello\.txt$/), newText: 'hello from the stand-in\n' }));
    // The command printed the file's line; the model's answer names it only in the command, so this came from its output.
    expect(commandOutput(events)).toContain('hello from the stand-in');
    expect(run.model.problems).toEqual([]);
    // Everything the agent asked its endpoint for is something the stand-in (and so a gateway) is known to serve.
    expect(run.model.requests.filter((request) => request.answeredWith === 'unknown').map((request) => request.path)).toEqual([]);
  });

  it('asks before a command when the policy says ask, and goes on once the question is answered over HTTP', async () => {
    const run = await open({ steps: WRITE_AND_CHANGE, capabilities: { edit: 'allow', execute: 'ask' } });
    await run.submit('hello');

    await run.desk.waitForStatus('hello', 'awaiting-input', 30_000);
    const [question] = (await run.desk.api('GET', '/tasks/hello')).json.openQuestions;
    expect(JSON.stringify(question.toolCall)).toContain('tr a-z A-Z');
    const answer = await run.desk.api('POST', '/tasks/hello/input', { questionId: question.id, optionId: allowOnce(question.options) });
    expect(answer.status).toBeLessThan(300);

    const status = await run.desk.waitForStatus('hello', ['completed', 'error', 'cancelled'], 30_000);
    expect(status, logLines(await run.events('hello')).join('\n')).toBe('completed');
    const { commit } = (await run.desk.api('GET', '/tasks/hello')).json;
    expect(execFileSync('git', ['show', `${commit}:upper.txt`], { cwd: run.desk.repo, encoding: 'utf8' })).toBe('HELLO FROM THE STAND-IN\n');
  });

  it.each([
    ['500s', { kind: 'fail', status: 500, message: 'stand-in server error' }, /500/],
    ['429s', { kind: 'fail', status: 429, message: 'stand-in rate limit' }, /429/],
    ['streams cut off', { kind: 'cut' }, /ECONNRESET|UND_ERR_SOCKET|terminated|closed/i],
  ] satisfies [string, ModelStep, RegExp][])('ends the task within 60 s with an error naming the endpoint and the cause when the model answers only %s', async (_what, failure, cause) => {
    // A user who wants failures fast lowers Claude Code's retries the same way.
    const run = await open({ steps: Array.from({ length: 20 }, () => failure), env: { CLAUDE_CODE_MAX_RETRIES: '1' } });
    await run.submit('hello');

    const status = await run.desk.waitForStatus('hello', ['completed', 'error', 'cancelled'], 60_000);
    const detail = (await run.desk.api('GET', '/tasks/hello')).json;
    expect({ status, errorMessage: detail.errorMessage }, logLines(await run.events('hello')).join('\n')).toEqual({
      status: 'error', errorMessage: expect.stringMatching(cause),
    });
    expect(detail.errorMessage, detail.errorMessage).toContain(run.model.host);
  });

  it('shows a stall notice naming the endpoint within 60 s while Claude Code retries a failing model on its own', async () => {
    // Claude Code's own retries (10, with back-off up to 32 s) outlast a minute; the activity must say why nothing moves.
    const run = await open({ steps: Array.from({ length: 30 }, (): ModelStep => ({ kind: 'fail', status: 500, message: 'stand-in server error' })) });
    await run.submit('hello');

    const notice = await waitForEvent(run.desk, 'hello', ({ event }) => event.type === 'log' && event.source === 'desk' && /sent nothing/.test(event.text), 60_000);
    expect(notice.event).toMatchObject({ level: 'warn', text: expect.stringContaining(run.model.host) });
    expect(run.model.requests.filter((request) => request.answeredWith === 'step').length).toBeGreaterThan(1);
  });

  it('cancelled in the middle of a turn, leaves none of its processes behind', async () => {
    const run = await open({ steps: [{ kind: 'slow', delayMs: 120_000, then: { kind: 'text', text: 'too late' } }] });
    await run.submit('hello');
    await run.model.waitForRequest((request) => request.answeredWith === 'step');
    const { agentPid } = (await run.desk.api('GET', '/tasks/hello')).json;
    const tree = treeOf(agentPid, readProcessTable()).map((process) => process.pid);
    expect(tree.length).toBeGreaterThan(1);

    expect((await run.desk.api('DELETE', '/hello')).status).toBeLessThan(300);
    await run.desk.waitForStatus('hello', 'cancelled', 20_000);

    const alive = readProcessTable().filter((process) => !process.zombie && tree.includes(process.pid));
    expect(alive).toEqual([]);
  });
});

function agentUpdates(events: readonly TaskEvent[]) {
  return events.flatMap((event) => (event.type === 'agent' ? [event.update] : []));
}

function toolKinds(events: readonly TaskEvent[]): string[] {
  return agentUpdates(events).flatMap((update) => (update.kind === 'tool-call' || update.kind === 'tool-call-update') && update.toolKind ? [update.toolKind] : []);
}

function diffs(events: readonly TaskEvent[]): unknown[] {
  return agentUpdates(events).flatMap((update) => ('content' in update && Array.isArray(update.content) ? update.content : []))
    .filter((block) => (block as { type?: string }).type === 'diff');
}

/** What the agent's commands printed: terminal output (claude-code-acp) or tool call content and raw output (claude-agent-acp). */
function commandOutput(events: readonly TaskEvent[]): string {
  const terminal = events.flatMap((event) => (event.type === 'terminal-output' ? [event.data] : []));
  const executes = new Set(agentUpdates(events).flatMap((update) => ('toolKind' in update && update.toolKind === 'execute' ? [update.toolCallId] : [])));
  const fromTools = agentUpdates(events).flatMap((update) => (update.kind === 'tool-call-update' && executes.has(update.toolCallId) && update.status === 'completed'
    ? [JSON.stringify([update.content, update.rawOutput])] : []));
  return [...terminal, ...fromTools].join('\n');
}

function allowOnce(options: { optionId: string; kind: string }[]): string {
  const option = options.find((candidate) => candidate.kind === 'allow_once') ?? options.find((candidate) => candidate.kind.startsWith('allow'));
  if (!option) throw new Error(`The question offers no allowing option: ${JSON.stringify(options)}`);
  return option.optionId;
}
