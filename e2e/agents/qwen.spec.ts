// Qwen Code (`qwen --acp`) finishing real work through a real desk, in the default sandbox with an empty HOME, its
// model stood in for by the OpenAI Chat Completions stand-in on 127.0.0.1.
//
// What qwen 0.15.10 does, learned by speaking ACP to it directly against the stand-in:
// - Pointing it: OPENAI_BASE_URL (…/v1), OPENAI_API_KEY (any value) and OPENAI_MODEL are enough for `session/new`
//   to open a session (qwen infers its `openai` auth type from the three); `security.auth.selectedType: "openai"`
//   in ~/.qwen/settings.json chooses it explicitly. Without either, session/new answers auth_required (-32000).
// - It sends every request through HTTPS_PROXY/HTTP_PROXY when set, ignoring NO_PROXY (it installs undici's
//   ProxyAgent globally), so a local gateway is reached through the proxy: in the desk's sandbox that is the
//   egress proxy, which must let the policy's `127.0.0.1:PORT` through.
// - Requests: `POST /v1/chat/completions`, `stream: true` with `stream_options.include_usage`, tools offered:
//   tool_search, agent, task_stop, send_message, skill, list_directory, read_file, grep_search, glob, edit,
//   write_file, run_shell_command, todo_write, web_fetch, monitor. `write_file` wants an absolute `file_path`.
// - Over ACP it sends no `tool_call` before asking: `session/request_permission` carries the whole tool call (kind
//   `edit` with a diff and locations, or `execute` with `rawInput.command`), options proceed_once / proceed_always… /
//   cancel. Files are written through `fs/write_text_file`; commands run in qwen's own shell (never `terminal/*`),
//   their output comes back as text in the `tool_call_update` ("Command: …\nOutput: …\nExit Code: 0").
// - Usage arrives as `_meta.usage` on an empty agent_message_chunk after each model answer.
// - Model errors: a stream cut off ends `session/prompt` at once with -32603 "Internal error", data.details
//   "terminated". A 429 or 5xx is retried with nothing said to the client: the OpenAI client retries 3 times per
//   attempt (0.5–8 s back-off; `model.generationConfig.maxRetries` in settings changes it), around that qwen makes 7
//   attempts (1.5 s doubling to 30 s, not configurable), so a model that keeps failing ends the turn after about
//   100 s; 429s are then retried 10 more times from 60 s apart (again `maxRetries`). With
//   QWEN_CODE_UNATTENDED_RETRY=1 it retries 429 for hours and writes "[qwen-code] Waiting for API capacity…" to
//   stderr.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Capability } from '../../src/shared/governance';
import type { TaskEvent } from '../../src/shared/events';
import { git } from '../../src/main/core/git/git-test-fixture';
import { probeSandbox } from '../../src/main/core/sandbox/sandbox-probe';
import { desksPerTest, makeRepo, scriptedAgent, taskEvents, waitForEvent, type Desk } from '../../src/main/core/test-support/desk-harness';
import type { ModelStep } from '../../src/main/core/test-support/model-stand-ins/model-script';
import { startOpenAiChatStandIn, type OpenAiChatStandIn } from '../../src/main/core/test-support/model-stand-ins/openai-chat';
import { QWEN, qwenAgentSpec, writeQwenSettings } from './qwen-desk';
import { describeWithAgent } from './agent-availability';
import { processesWithEnv } from './agent-processes';

const WRITE_RUN_ANSWER: ModelStep[] = [
  { kind: 'tool', tool: ['write_file'], input: { file_path: 'hello.txt', content: 'hello from qwen\n' } },
  { kind: 'tool', tool: ['run_shell_command'], input: { command: 'echo made-by-qwen > made.txt && cat made.txt', description: 'Write made.txt' } },
  { kind: 'text', text: 'Wrote hello.txt and made.txt.' },
];

type CapabilityMode = 'allow' | 'ask';

describeWithAgent(QWEN, 'Qwen Code through the desk, against an OpenAI-compatible stand-in', () => {
  const openDesk = desksPerTest();
  // The default sandbox where this machine has one (bubblewrap), as a desk would pick it.
  const sandbox = probeSandbox();
  let standIn: OpenAiChatStandIn | undefined;
  afterEach(async () => {
    await standIn?.close();
    standIn = undefined;
  });

  /** A desk whose `qwen` agent talks to a fresh stand-in following `steps`, the policy naming the stand-in's port. */
  async function qwenDesk(steps: readonly ModelStep[], capabilities: Partial<Record<Capability, CapabilityMode>>, options: { fallback?: ModelStep } = {}): Promise<Desk & { root: string; standIn: OpenAiChatStandIn }> {
    // qwen's write_file wants an absolute path: the stand-in puts the task's worktree in front when it answers,
    // once the desk (started after the stand-in, whose port its policy names) has made it.
    const started: { desk?: Desk } = {};
    const server = await startOpenAiChatStandIn({
      steps, model: 'qwen-stand-in', ...(options.fallback && { fallback: options.fallback }),
      bindInput: (input) => (typeof input.file_path === 'string' && !isAbsolute(input.file_path) && started.desk
        ? { ...input, file_path: join(worktreeOf(started.desk), input.file_path) }
        : input),
    });
    standIn = server;
    // The agent's empty home sits in the desk's temp dir, so closing the desk removes it too.
    const root = mkdtempSync(join(tmpdir(), 'desk-qwen-'));
    const home = join(root, 'home');
    mkdirSync(home);
    writeQwenSettings(home, server.model);
    const desk = await openDesk({
      reuse: { root, repo: makeRepo(root), dataDir: join(root, 'data') },
      agents: [scriptedAgent(), qwenAgentSpec(home, server, { confined: (await sandbox).available })],
      sandbox: await sandbox,
      policy: { version: 1, defaults: { capabilities, network: [`127.0.0.1:${server.port}`] } },
    });
    started.desk = desk;
    return Object.assign(desk, { standIn: server });
  }

  it('completes a task that writes a file and runs a command, asking nothing when the policy allows both', async () => {
    const desk = await qwenDesk(WRITE_RUN_ANSWER, { read: 'allow', edit: 'allow', execute: 'allow' });
    await submit(desk, 'greet');

    expect(await desk.waitForStatus('greet', ['completed', 'error', 'cancelled'], 90_000)).toBe('completed');
    const task = (await desk.api('GET', '/tasks/greet')).json;
    expect(git(desk.repo, 'show', `${task.commit}:hello.txt`)).toBe('hello from qwen');
    expect(git(desk.repo, 'show', `${task.commit}:made.txt`)).toBe('made-by-qwen');
    const events = await taskEvents(desk, 'greet');
    expect(events.filter((event) => event.type === 'question-opened')).toEqual([]);
    const calls = toolCalls(events);
    expect(calls.some((call) => call.toolKind === 'edit' && JSON.stringify(call.content).includes('"type":"diff"'))).toBe(true);
    expect(calls.some((call) => call.toolKind === 'execute')).toBe(true);
    expect(JSON.stringify(calls)).toContain('made-by-qwen');
    expect(agentText(events)).toContain('Wrote hello.txt and made.txt.');
    // Confined wherever this machine can confine it, with the network limited to the stand-in.
    const logs = events.flatMap((event) => (event.type === 'log' ? [event.text] : []));
    expect(logs).toContainEqual((await sandbox).available ? expect.stringMatching(new RegExp(`^Sandboxed \\(.*network limited to 127\\.0\\.0\\.1:${desk.standIn.port}\\.`)) : expect.stringMatching(/^Unsandboxed/));
  });

  it('asks a person before the command when the policy says ask, and goes on once answered over HTTP', async () => {
    const desk = await qwenDesk(WRITE_RUN_ANSWER, { read: 'allow', edit: 'allow', execute: 'ask' });
    await submit(desk, 'asked');

    const opened = await waitForEvent(desk, 'asked', (envelope) => envelope.event.type === 'question-opened', 90_000);
    if (opened.event.type !== 'question-opened') throw new Error('unreachable');
    const question = opened.event.question;
    expect(JSON.stringify(question.toolCall)).toContain('echo made-by-qwen');
    const allow = question.options?.find((option) => option.kind === 'allow_once');
    expect(allow).toBeDefined();
    expect((await desk.api('POST', '/tasks/asked/input', { questionId: question.id, optionId: allow!.optionId })).status).toBeLessThan(300);

    expect(await desk.waitForStatus('asked', ['completed', 'error', 'cancelled'], 90_000)).toBe('completed');
    const task = (await desk.api('GET', '/tasks/asked')).json;
    expect(git(desk.repo, 'show', `${task.commit}:made.txt`)).toBe('made-by-qwen');
  });

  it('ends the task in error, within 60 s, naming the endpoint, when the model\'s stream is cut off', async () => {
    const desk = await qwenDesk([{ kind: 'cut', text: 'Let me' }], { read: 'allow', edit: 'allow', execute: 'allow' });
    await submit(desk, 'cut');

    expect(await desk.waitForStatus('cut', ['completed', 'error', 'cancelled'], 60_000)).toBe('error');
    const { errorMessage } = (await desk.api('GET', '/tasks/cut')).json;
    // qwen's own word for a stream that broke off, and where it was pointed.
    expect(errorMessage).toMatch(/terminated/);
    expect(errorMessage).toContain(`OPENAI_BASE_URL=${desk.standIn.baseUrl}`);
  });

  it.each([500, 429])('says in the activity, within 60 s, that the agent has gone quiet while it retries a model answering %i', async (status) => {
    const failing: ModelStep = { kind: 'fail', status };
    const desk = await qwenDesk([], { read: 'allow', edit: 'allow', execute: 'allow' }, { fallback: failing });
    await submit(desk, 'failing');

    const notice = await waitForEvent(desk, 'failing', (envelope) => envelope.event.type === 'log' && /sent nothing/.test(envelope.event.text), 60_000);
    expect(notice.event).toMatchObject({ type: 'log', text: expect.stringContaining(`OPENAI_BASE_URL=${desk.standIn.baseUrl}`) });
    // It is retrying, not stuck: the stand-in has been asked again since the first failure.
    expect(desk.standIn.requests.length).toBeGreaterThan(1);
    expect(desk.core.tasks.list().find((task) => task.id === 'failing')?.status).toBe('in-progress');
  });

  it('leaves no process behind when the task is cancelled while the model is answering', async () => {
    const desk = await qwenDesk([{ kind: 'slow', delayMs: 600_000, then: { kind: 'text', text: 'Too late.' } }], { read: 'allow', edit: 'allow', execute: 'allow' });
    await submit(desk, 'stop');
    await expect.poll(() => desk.standIn.pending(), { timeout: 60_000 }).toBe(1);
    expect(processesWithEnv('OPENAI_BASE_URL', desk.standIn.baseUrl).length).toBeGreaterThan(0);

    expect((await desk.api('DELETE', '/stop')).json).toMatchObject({ status: 'cancelled' });
    await expect.poll(() => processesWithEnv('OPENAI_BASE_URL', desk.standIn.baseUrl), { timeout: 20_000 }).toEqual([]);
    await expect.poll(() => desk.standIn.pending(), { timeout: 20_000 }).toBe(0);
  });
});

async function submit(desk: Desk, id: string): Promise<void> {
  const submitted = await desk.api('POST', '/', { id, prompt: 'Write hello.txt, run a command that writes made.txt, then say what you did.', agent: 'qwen' });
  expect(submitted.status).toBe(202);
}

function worktreeOf(desk: Desk): string {
  const running = desk.core.tasks.list().find((task) => task.status === 'in-progress' || task.status === 'awaiting-input');
  const path = running && desk.core.tasks.detail(running.id).worktreePath;
  if (!path) throw new Error('The model was asked for a file while no task had a worktree');
  return path;
}

type ToolCallEvent = Extract<Extract<TaskEvent, { type: 'agent' }>['update'], { kind: 'tool-call' | 'tool-call-update' }>;

function toolCalls(events: TaskEvent[]): ToolCallEvent[] {
  return events.flatMap((event) => (event.type === 'agent' && (event.update.kind === 'tool-call' || event.update.kind === 'tool-call-update') ? [event.update] : []));
}

function agentText(events: TaskEvent[]): string {
  return events.map((event) => (event.type === 'agent' && event.update.kind === 'message' && event.update.role === 'agent' ? event.update.text : '')).join('');
}
