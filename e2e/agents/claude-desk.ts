// A real desk running a Claude agent (claude-code-acp or claude-agent-acp) against the Anthropic stand-in, set up the
// way a user points Claude at a gateway: ANTHROPIC_BASE_URL and a key in the agent's entry, an empty HOME.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Capability, CapabilityMode, PolicyFile } from '../../src/shared/governance';
import type { SandboxStatus } from '../../src/shared/sandbox';
import type { TaskEvent } from '../../src/shared/events';
import { isolateGitConfig } from '../../src/main/core/git/git-test-fixture';
import { destroyDesk, makeRepo, scriptedAgent, startDesk, taskEvents, type Desk } from '../../src/main/core/test-support/desk-harness';
import { startAnthropicStandIn, type AnthropicStandIn } from '../../src/main/core/test-support/model-stand-ins/anthropic-messages';
import type { ModelStep } from '../../src/main/core/test-support/model-stand-ins/model-script';
import { isolatedAgentSpec, REAL_AGENTS, type RealAgent } from './real-agents';

/** The two Claude adapters: the one issue 25 measured, and its successor under the ACP organisation's name. */
export const CLAUDE_AGENTS: readonly RealAgent[] = REAL_AGENTS.filter((agent) => agent.id === 'claude-code-acp' || agent.id === 'claude-agent-acp');

/**
 * A turn that writes hello.txt, runs a command that reads it back, and ends with a message. Tool names are the
 * adapter's (claude-code-acp offers `mcp__acp__Write`, claude-agent-acp `Write`); pickTool takes whichever is offered.
 * The Bash tool of claude-code-acp refuses input without `timeout`.
 */
export const WRITE_RUN_SAY: readonly ModelStep[] = [
  { kind: 'tool', tool: ['Write'], input: { file_path: '{cwd}/hello.txt', content: 'hello from the stand-in\n' } },
  { kind: 'tool', tool: ['Bash'], input: { command: 'cat hello.txt && echo command-ran', description: 'Show the file', timeout: 60_000 } },
  { kind: 'text', text: 'Wrote hello.txt and showed it.' },
];

export interface ClaudeRun {
  desk: Desk & { root: string };
  model: AnthropicStandIn;
  /** Submits `prompt` to the Claude agent under task id `id`. */
  submit(id: string, prompt?: string): Promise<void>;
  events(id: string): Promise<TaskEvent[]>;
}

export interface ClaudeRunOptions {
  steps: readonly ModelStep[];
  capabilities?: Partial<Record<Capability, CapabilityMode>>;
  /** Default: what this machine offers (bubblewrap where it works), as a user gets it. */
  sandbox?: SandboxStatus;
  /** More variables in the agent's entry (e.g. CLAUDE_CODE_MAX_RETRIES, which a user may set too). */
  env?: Record<string, string>;
  /** The desk's own environment (a forge token and API address), which agents never see. */
  deskEnv?: Record<string, string>;
  /** More files committed in the repository (a `.desk/config.json`). */
  files?: Record<string, string>;
}

/**
 * For a spec file: opens a desk per test with a Claude agent and its stand-in, and closes both after each test.
 * Isolates git config for the file.
 */
export function claudeRuns(agent: RealAgent): (options: ClaudeRunOptions) => Promise<ClaudeRun> {
  let restoreGit: () => void = () => {};
  const opened: ClaudeRun[] = [];
  beforeAll(() => { restoreGit = isolateGitConfig(); });
  afterAll(() => restoreGit());
  afterEach(async () => {
    for (const run of opened.splice(0)) {
      await destroyDesk(run.desk);
      await run.model.close();
    }
  });
  return async (options) => {
    const model = await startAnthropicStandIn({ steps: options.steps });
    // The agent's empty home sits in the desk's temp dir, so closing the desk removes it too.
    const root = mkdtempSync(join(tmpdir(), 'desk-claude-'));
    const home = join(root, 'home');
    mkdirSync(home);
    const isolated = isolatedAgentSpec(agent, home);
    // What a user's agents.json entry would say to point Claude at a gateway on this machine.
    const spec = { ...isolated, env: { ...isolated.env, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-ant-stand-in', ...options.env } };
    const policy: z.input<typeof PolicyFile> = {
      version: 1,
      defaults: { capabilities: options.capabilities ?? { edit: 'allow', execute: 'allow' }, network: [model.host] },
    };
    const desk = await startDesk({
      reuse: { root, repo: makeRepo(root, { 'README.md': '# Fixture\n', ...options.files }), dataDir: join(root, 'data') },
      ...(options.deskEnv && { env: options.deskEnv }),
      agents: [scriptedAgent(), spec], policy,
      ...(options.sandbox !== undefined && { sandbox: options.sandbox }),
    });
    const run: ClaudeRun = {
      desk, model,
      async submit(id, prompt = 'Write hello.txt, show it with a command, then say what you did.') {
        const answer = await desk.api('POST', '/', { id, prompt, agent: agent.id });
        if (answer.status !== 202) throw new Error(`The desk refused the task (${answer.status}): ${answer.text}`);
      },
      events: (id) => taskEvents(desk, id),
    };
    opened.push(run);
    return run;
  };
}

/** The desk's and the agent's log lines of a task, for a failure message that says what happened. */
export function logLines(events: readonly TaskEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'log' ? [`[${event.source}] ${event.text}`] : []));
}
