// Codex (codex-acp 2.6.0 running codex 0.166.0) finishes real work through the desk, in the default sandbox with an
// empty HOME, configured through its own ~/.codex/config.toml to use a stand-in of the OpenAI Responses API.
/*
 * What Codex does, learnt by speaking to it directly (no desk, no sandbox) against the stand-in:
 * - Pointing it: ~/.codex/config.toml with `model_provider = "gateway"` and `[model_providers.gateway]`
 *   (`base_url = "http://127.0.0.1:PORT/v1"`, `wire_api = "responses"`, `env_key = "<VAR>"`), the key in <VAR>.
 *   No login: session/new answers at once (`_auth/status_update` says "Custom model gateway"). It calls
 *   `POST {base_url}/responses` only (always `stream: true`; no `/models`), and warns once in the chat that the
 *   model's metadata is unknown.
 * - Tools offered (the model's fallback metadata): `exec_command` (function, `{cmd}`), `write_stdin`,
 *   `request_user_input`, `view_image`, a `multi_agent_v1` namespace, goal tools, `web_search`. No `apply_patch`
 *   and no `shell`: files are written by commands.
 * - It never calls fs/* or terminal/*: it runs commands itself and reports them as `tool_call` (kind `execute`,
 *   title = the command, content `{type:"terminal", terminalId: toolCallId}`), with the output and exit code only
 *   in `_meta.terminal_output_delta` / `_meta.terminal_exit` of `tool_call_update`.
 * - Modes (session/new `modes`): `read-only` (approval on-request, read-only sandbox), `workspace-write`
 *   (on-request, writes in the workspace), `agent` ("Auto review", the default: workspace-write sandbox, requests
 *   judged by its auto reviewer) and `agent-full-access` (approval `never`, no sandbox of its own). In every mode but
 *   the last, each command runs in Codex's own bubblewrap and fails: "bwrap: execvp codex-linux-sandbox: No such
 *   file or directory" (exit 1), and the turn still ends `end_turn`. `session/set_mode agent-full-access`, or
 *   `INITIAL_AGENT_MODE=agent-full-access` in its environment, makes the command run. `sandbox_mode =
 *   "danger-full-access"` in config.toml does NOT: codex-acp sends its mode's sandbox policy with every turn.
 * - In agent-full-access it asks nothing (approval `never`): no session/request_permission reaches the client.
 * - Model failures end the turn `end_turn`, not an error: the reason arrives as chat text ("exceeded retry limit,
 *   last status: 429 Too Many Requests"; for 500s "We're currently experiencing high demand, …"; for a cut stream
 *   "stream disconnected before completion: …"), after `session_info_update` `_meta.codex.error` ("Reconnecting...
 *   n/m", willRetry) and `_meta.codex.threadStatus.type = "systemError"`. Retries are set per provider in
 *   config.toml: `request_max_retries` (default 4), `stream_max_retries` (default 5). An endpoint it cannot connect
 *   to at all gets "Reconnecting... waiting for network" (cause "Connection failed: error sending request"),
 *   retried for as long as it runs.
 * What the desk does with that: confined, it switches Codex to agent-full-access (its sandbox is the one that holds);
 * `_meta` terminal output becomes the tool call's terminal output; Codex's in-band retry reports are activity lines;
 * a turn ending after `systemError` ends the task in error with Codex's reason.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, expect, it } from 'vitest';
import { destroyDesk, taskEvents, waitForEvent } from '../../src/main/core/test-support/desk-harness';
import { agentUpdates, CODEX, endOf, startCodexDesk, type CodexDesk } from './codex-acp-desk';
import { describeWithAgent } from './agent-availability';
import { processesWithEnv } from './agent-processes';

const COMMAND = 'printf "hello from codex\\n" > hello.txt && cat hello.txt';
const WRITE_AND_SHOW = [
  { kind: 'tool', tool: ['exec_command', 'shell'], input: { cmd: COMMAND } },
  { kind: 'text', text: 'Wrote hello.txt and showed it.' },
] as const;

let running: CodexDesk | undefined;
afterEach(async () => {
  if (running) {
    await destroyDesk(running.desk);
    await running.close();
  }
  running = undefined;
});

async function open(options: Parameters<typeof startCodexDesk>[0]): Promise<CodexDesk> {
  running = await startCodexDesk(options);
  return running;
}

function fileAt(repo: string, commit: string, path: string): string {
  return execFileSync('git', ['-C', repo, 'show', `${commit}:${path}`], { encoding: 'utf8' });
}

describeWithAgent(CODEX, 'Codex through the desk', () => {
  it('writes a file with its command, shows the command and its output, and the commit holds the file', async () => {
    const { desk, standIn } = await open({ steps: WRITE_AND_SHOW, capabilities: { edit: 'allow', execute: 'allow' } });
    expect((await desk.api('POST', '/', { id: 'hello', prompt: 'Write hello.txt and show it', agent: 'codex-acp' })).status).toBe(202);

    const status = await endOf(desk, 'hello', 60_000);
    const detail = (await desk.api('GET', '/tasks/hello')).json;
    expect(status, detail.errorMessage).toBe('completed');
    expect(fileAt(desk.repo, detail.commit, 'hello.txt')).toBe('hello from codex\n');

    const events = await taskEvents(desk, 'hello');
    // Confined wherever this machine can confine, reaching the stand-in alone, with Codex's own sandbox switched off.
    const logs = events.flatMap((event) => (event.type === 'log' ? [event.text] : []));
    if (desk.core.sandbox.available) {
      expect(logs).toContainEqual(expect.stringMatching(new RegExp(`^Sandboxed \\(.*network limited to 127\\.0\\.0\\.1:${standIn.port}\\.`)));
      expect(logs).toContainEqual(expect.stringContaining('(agent-full-access)'));
    }
    const call = agentUpdates(events, 'tool-call').find((update) => update.kind === 'tool-call' && update.toolKind === 'execute');
    expect(call).toMatchObject({ title: COMMAND });
    const shown = JSON.stringify(events.filter((event) => event.type === 'terminal-output' || (event.type === 'agent' && event.update.kind === 'tool-call-update')));
    expect(shown).toContain('hello from codex');
    const said = agentUpdates(events, 'message').map((update) => (update.kind === 'message' ? update.text : '')).join('');
    expect(said).toContain('Wrote hello.txt and showed it.');
    expect((await desk.api('GET', '/api/tasks/hello/diff')).json.files).toEqual([expect.objectContaining({ path: 'hello.txt', status: 'added', newText: 'hello from codex\n' })]);
  });

  it('asks no question when the policy allows edits and commands', async () => {
    const { desk } = await open({ steps: WRITE_AND_SHOW, capabilities: { edit: 'allow', execute: 'allow' } });
    await desk.api('POST', '/', { id: 'quiet', prompt: 'Write hello.txt and show it', agent: 'codex-acp' });

    expect(await endOf(desk, 'quiet', 60_000)).toBe('completed');
    const events = await taskEvents(desk, 'quiet');
    expect(events.filter((event) => event.type === 'question-opened')).toEqual([]);
    expect(events.filter((event) => event.type === 'governance' && event.decision === 'escalated')).toEqual([]);
  });

  // Confined, the desk puts Codex in agent-full-access (approval `never`) when commands are allowed, and in its
  // workspace-write mode when the policy asks before them: Codex then asks (session/request_permission, kind execute,
  // the command as title) before a command it runs outside its own sandbox, which works inside the desk's; its other
  // commands fail in its own sandbox ("bwrap: execvp codex-linux-sandbox: No such file or directory") until it asks.
  it('asks a person before a command when the policy says ask, and goes on once answered over HTTP', async () => {
    // As a model does: the plain command fails in Codex's own sandbox, so it runs it again asking for escalation.
    const escalated = { cmd: COMMAND, sandbox_permissions: 'require_escalated', justification: 'Write hello.txt in the worktree?' };
    const steps = [WRITE_AND_SHOW[0], { kind: 'tool', tool: ['exec_command'], input: escalated }, WRITE_AND_SHOW[1]] as const;
    const { desk } = await open({ steps, capabilities: { edit: 'allow', execute: 'ask' } });
    await desk.api('POST', '/', { id: 'asks', prompt: 'Write hello.txt and show it', agent: 'codex-acp' });

    const reached = await desk.waitForStatus('asks', ['awaiting-input', 'completed', 'error'], 60_000);
    expect(reached, (await taskEvents(desk, 'asks')).map((event) => JSON.stringify(event).slice(0, 300)).join('\n')).toBe('awaiting-input');
    const [question] = (await desk.api('GET', '/tasks/asks')).json.openQuestions;
    expect(question).toMatchObject({ kind: 'permission' });
    expect(JSON.stringify(question)).toContain('hello from codex');
    const allow = question.options.find((option: { kind: string }) => option.kind === 'allow_once');
    expect((await desk.api('POST', '/tasks/asks/input', { questionId: question.id, optionId: allow.optionId })).status).toBe(200);
    expect(await endOf(desk, 'asks', 60_000)).toBe('completed');
    expect(fileAt(desk.repo, (await desk.api('GET', '/tasks/asks')).json.commit, 'hello.txt')).toBe('hello from codex\n');
    const logs = (await taskEvents(desk, 'asks')).flatMap((event) => (event.type === 'log' ? [event.text] : []));
    expect(logs).toContainEqual(expect.stringContaining('the policy asks before commands, so it runs in its mode'));
  });

  it.each([
    // Codex's words for a 5xx name no status: it says the service is busy.
    ['answers 500 to every request', { kind: 'fail', status: 500 }, /high demand/],
    ['answers 429 to every request', { kind: 'fail', status: 429 }, /last status: 429 Too Many Requests/],
    ['cuts every stream off', { kind: 'cut', text: 'Let me' }, /stream disconnected before completion/],
  ] as const)('ends the task in error within 60 s, saying what failed and where the endpoint is set, when the model %s', async (_what, fallback, failure) => {
    const { desk, standIn } = await open({ steps: [], fallback, capabilities: { edit: 'allow', execute: 'allow' } });
    await desk.api('POST', '/', { id: 'fails', prompt: 'Write hello.txt', agent: 'codex-acp' });

    expect(await endOf(desk, 'fails', 60_000)).toBe('error');
    const { errorMessage } = (await desk.api('GET', '/tasks/fails')).json;
    expect(errorMessage).toMatch(/^Codex ended its turn because its model failed/);
    expect(errorMessage).toMatch(failure);
    // Codex reads its endpoint from config.toml, which the desk does not read: the error says where it is set.
    expect(errorMessage).toContain('~/.codex/config.toml');
    expect(standIn.requests.length).toBeGreaterThan(0);
  });

  it('shows in the activity, while Codex retries, that it cannot reach its model when the policy does not name the endpoint', async () => {
    const { desk, standIn } = await open({ steps: WRITE_AND_SHOW, capabilities: { edit: 'allow', execute: 'allow' }, standInReachable: false });
    await desk.api('POST', '/', { id: 'walled', prompt: 'Write hello.txt', agent: 'codex-acp' });

    // Codex retries "waiting for network" for as long as it runs; the activity says so at its first attempt.
    const notice = await waitForEvent(desk, 'walled', ({ event }) => event.type === 'log' && event.text.startsWith('Codex reports trouble reaching its model'), 30_000);
    expect(notice.event).toMatchObject({ type: 'log', level: 'warn', text: expect.stringMatching(/waiting for network.*policy's network must name its host and port/s) });
    expect(standIn.requests).toEqual([]);
    expect((await desk.api('DELETE', '/walled')).status).toBeLessThan(300);
    expect(await endOf(desk, 'walled', 20_000)).toBe('cancelled');
  });

  it('leaves no process behind when the task is cancelled in the middle of a turn', async () => {
    const { desk, standIn, home } = await open({ steps: [{ kind: 'slow', delayMs: 120_000, then: { kind: 'text', text: 'Too late.' } }], capabilities: { edit: 'allow', execute: 'allow' } });
    await desk.api('POST', '/', { id: 'stop', prompt: 'Write hello.txt', agent: 'codex-acp' });
    // The turn is under way once Codex is waiting on the model.
    await expect.poll(() => standIn.pending(), { timeout: 60_000, interval: 100 }).toBe(1);
    expect(processesWithEnv('HOME', home).map((found) => found.command).join('\n')).toMatch(/codex/);

    expect((await desk.api('DELETE', '/stop')).status).toBeLessThan(300);
    expect(await endOf(desk, 'stop', 20_000)).toBe('cancelled');
    expect(processesWithEnv('HOME', home)).toEqual([]);
  });
});
