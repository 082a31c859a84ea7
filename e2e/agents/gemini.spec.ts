// Gemini CLI (`gemini --acp`, @google/gemini-cli 0.61.0) through a real desk, in the default sandbox with an empty
// HOME, pointed at the Gemini API stand-in on 127.0.0.1 the way a user points it at a gateway.
//
// What talking to it directly taught (e2e/agents/agent-fixture.ts style, no desk, no sandbox):
// - Pointing it: GOOGLE_GEMINI_BASE_URL selects its "gateway" auth by itself (no settings, no `authenticate`);
//   GEMINI_API_KEY is sent as `x-goog-api-key` (any value does for the stand-in). It calls
//   POST <base>/v1beta/models/<model>:streamGenerateContent?alt=sse, and nothing else once `model.name` is set; left on
//   "auto" it first asks a classifier (gemini-3.5-flash-lite:generateContent, JSON, no tools) which model to use.
// - It offers 15-16 functions: write_file, replace, read_file, run_shell_command, list_directory, glob,
//   grep_search, web_fetch, google_web_search, … `write_file` takes {file_path, content}; `run_shell_command`
//   {command, description}.
// - To the client: `tool_call` / `tool_call_update` (kind edit with the diff; kind execute with the command as
//   title), `session/request_permission` carrying the tool call's kind, title, locations and content itself,
//   `fs/read_text_file` before write_file and replace, `fs/write_text_file` to write. It runs commands itself,
//   never over ACP `terminal/*`; their output reaches the client only with `tools.shell.enableInteractiveShell:
//   false` (through its pty the output is an ANSI structure that its ACP side drops).
// - Its ACP SDK rejects with the error object as sent (not an Error), and its check for a missing file reads
//   only an Error's message: any error answer to `fs/read_text_file`, ACP's resource-not-found included, makes
//   write_file fail "Error checking existing file". So the desk does not offer it file reads (known-agents.ts).
// - Model failures: 500/503 and 429 are retried `general.maxAttempts` times (default 10, at most 10) with back-off
//   from 5 s doubling to 30 s (about 3.5 min in all); then session/prompt fails with code 500 (or 429) and the
//   body Google sent as message. A cut stream is not retried: session/prompt fails with "terminated".
//   While it retries it says nothing to the client.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../src/shared/events';
import { taskEvents, waitForEvent } from '../../src/main/core/test-support/desk-harness';
import { isolateGitConfig, git } from '../../src/main/core/git/git-test-fixture';
import type { ModelStep } from '../../src/main/core/test-support/model-stand-ins/model-script';
import { answerWithin } from './agent-fixture';
import { GEMINI, startGeminiDesk, type GeminiDesk, type GeminiDeskOptions } from './gemini-desk';
import { describeWithAgent } from './agent-availability';
import { processesWithEnv } from './agent-processes';

const WRITE_RUN_ANSWER: ModelStep[] = [
  { kind: 'tool', tool: ['write_file'], input: { file_path: 'hello.txt', content: 'hello from gemini\n' } },
  { kind: 'tool', tool: ['run_shell_command'], input: { command: 'cat hello.txt && echo ran-ok', description: 'Show the file' } },
  { kind: 'text', text: 'I wrote hello.txt and ran a command.', thinking: 'The file is there.' },
];

type ToolCallUpdate = Extract<TaskEvent, { type: 'agent' }>['update'] & { kind: 'tool-call' | 'tool-call-update' };

/** The agent's tool calls and their updates, as the task's activity shows them. */
const toolCalls = (events: TaskEvent[]): ToolCallUpdate[] => events.flatMap((event) => (
  event.type === 'agent' && (event.update.kind === 'tool-call' || event.update.kind === 'tool-call-update') ? [event.update] : []));
/** The agent's answer: its message chunks joined. */
const agentText = (events: TaskEvent[]) => events.map((event) => (event.type === 'agent' && event.update.kind === 'message' && event.update.role === 'agent' ? event.update.text : '')).join('');
const contentText = (update: ToolCallUpdate) => JSON.stringify(update.content ?? []);

describeWithAgent(GEMINI, 'Gemini CLI through the desk', () => {
  let restoreGit = () => {};
  let opened: GeminiDesk | undefined;
  beforeAll(() => { restoreGit = isolateGitConfig(); });
  afterAll(() => restoreGit());
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });

  async function submit(options: GeminiDeskOptions): Promise<GeminiDesk> {
    opened = await startGeminiDesk(options);
    const submitted = await opened.desk.api('POST', '/', { id: 'hello', prompt: 'Write hello.txt, then show it.', agent: 'gemini' });
    expect(submitted.status).toBe(202);
    return opened;
  }

  it('writes a file with its own write_file, runs a command and answers, with no question under an allowing policy, and the commit holds the file', async () => {
    const { desk, model, key } = await submit({ steps: WRITE_RUN_ANSWER, capabilities: { read: 'allow', edit: 'allow', execute: 'allow' } });

    const status = await desk.waitForStatus('hello', ['completed', 'error', 'cancelled'], 60_000);
    const detail = (await desk.api('GET', '/tasks/hello')).json;
    const events = await taskEvents(desk, 'hello');

    expect({ status, error: detail.errorMessage }).toEqual({ status: 'completed', error: undefined });
    // (The helper drops the last newline of git's output.)
    expect(git(desk.repo, 'show', `${detail.commit}:hello.txt`)).toBe('hello from gemini');
    const calls = toolCalls(events);
    // Asking first, Gemini announces a tool call in its permission request, then sends only updates of it.
    expect(calls).toContainEqual(expect.objectContaining({ toolKind: 'edit', title: 'Writing to hello.txt', status: 'completed' }));
    expect(calls.some((update) => contentText(update).includes('"type":"diff"') && contentText(update).includes('hello from gemini'))).toBe(true);
    expect(calls.some((update) => update.status === 'completed' && update.toolKind === 'execute' && contentText(update).includes('hello from gemini\\nran-ok'))).toBe(true);
    expect(agentText(events)).toBe('I wrote hello.txt and ran a command.');
    expect(events.filter((event) => event.type === 'question-opened')).toEqual([]);
    // It reached the model as pointed, with the key it was given.
    expect(model.scripted()).toHaveLength(3);
    expect(model.scripted()[0]!.headers['x-goog-api-key']).toBe(key);
  });

  it('asks before a command when commands need a person, and goes on to completion once answered over HTTP', async () => {
    const { desk } = await submit({ steps: WRITE_RUN_ANSWER, capabilities: { read: 'allow', edit: 'allow', execute: 'ask' } });

    const opened = await waitForEvent(desk, 'hello', ({ event }) => event.type === 'question-opened', 60_000);
    if (opened.event.type !== 'question-opened') throw new Error('unreachable');
    const { question } = opened.event;
    expect(question.prompt).toContain('cat hello.txt && echo ran-ok');
    expect(await desk.waitForStatus('hello', 'awaiting-input')).toBe('awaiting-input');
    const allow = question.options?.find((option) => option.kind === 'allow_once');
    expect(allow).toBeDefined();

    const answered = await desk.api('POST', '/tasks/hello/input', { questionId: question.id, optionId: allow!.optionId });
    expect(answered.status).toBeLessThan(300);

    expect(await desk.waitForStatus('hello', ['completed', 'error', 'cancelled'], 60_000)).toBe('completed');
    const events = await taskEvents(desk, 'hello');
    expect(toolCalls(events).some((update) => update.status === 'completed' && contentText(update).includes('ran-ok'))).toBe(true);
    expect(events.filter((event) => event.type === 'question-opened')).toHaveLength(1);
  });

  describe.each([
    ['answers 500 to every request', { kind: 'fail', status: 500, message: 'Internal error encountered.' }, /500/],
    ['answers 429 to every request', { kind: 'fail', status: 429, message: 'Resource has been exhausted (e.g. check quota).' }, /429/],
    ['cuts every stream short', { kind: 'cut', text: 'Half an ' }, /terminated/],
  ] satisfies [string, ModelStep, RegExp][])('when the model %s', (_what, step, says) => {
    it('ends the task in error within 60 s, naming the endpoint and what went wrong', async () => {
      const { desk, model } = await submit({ steps: Array.from({ length: 20 }, () => step), capabilities: { read: 'allow', edit: 'allow', execute: 'allow' }, maxAttempts: 2 });

      expect(await desk.waitForStatus('hello', ['completed', 'error', 'cancelled'], 60_000)).toBe('error');
      const { errorMessage } = (await desk.api('GET', '/tasks/hello')).json;

      expect(errorMessage).toMatch(says);
      expect(errorMessage).toContain(model.url);
      // `general.maxAttempts` bounds its retries: 2 attempts for a status, none for a cut stream.
      expect(model.scripted()).toHaveLength(step.kind === 'cut' ? 1 : 2);
    });
  });

  it('shows a stall notice naming the endpoint while it retries a failing model with its default retries', async () => {
    const { desk, model } = await submit({
      steps: Array.from({ length: 20 }, () => ({ kind: 'fail', status: 503, message: 'The model is overloaded. Please try again later.' }) as const),
      capabilities: { read: 'allow', edit: 'allow', execute: 'allow' },
      maxAttempts: 'gemini-default',
    });

    // It says nothing to the client between attempts (5 s, 10 s, 20 s, then 30 s apart): the desk notices the silence.
    const notice = await waitForEvent(desk, 'hello', ({ event }) => event.type === 'log' && event.source === 'desk' && event.level === 'warn' && event.text.includes(model.url), 60_000);

    expect(notice.event).toMatchObject({ type: 'log', text: expect.stringContaining('Gemini CLI') });
    expect(await desk.waitForStatus('hello', 'in-progress')).toBe('in-progress');
    expect(model.scripted().length).toBeGreaterThanOrEqual(2);
  });

  it('leaves no process behind when cancelled while it waits for the model', async () => {
    const { desk, model, key } = await submit({
      steps: [{ kind: 'slow', delayMs: 120_000, then: { kind: 'text', text: 'Too late.' } }],
      capabilities: { read: 'allow', edit: 'allow', execute: 'allow' },
    });
    // Bounded, so an agent that never reaches the model (a sandbox without the loopback endpoint) fails here, saying so.
    await answerWithin(model.scriptedReached(1), 60_000, 'Gemini\'s first model request (did it reach the stand-in?)', () => '');
    expect(processesWithEnv('GEMINI_API_KEY', key)).not.toEqual([]);

    expect((await desk.api('DELETE', '/hello')).status).toBeLessThan(300);

    expect(await desk.waitForStatus('hello', ['cancelled', 'error', 'completed'], 30_000)).toBe('cancelled');
    expect(processesWithEnv('GEMINI_API_KEY', key)).toEqual([]);
  });
});
