// A real desk running the real Codex (codex-acp) in an empty HOME whose own ~/.codex/config.toml points it at a
// stand-in of the OpenAI Responses API on 127.0.0.1, the way a person points Codex at a LiteLLM gateway.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import type { PolicyFile, Capability, CapabilityMode } from '../../src/shared/governance';
import type { TaskEvent } from '../../src/shared/events';
import type { SandboxStatus } from '../../src/shared/sandbox';
import type { ModelStep } from '../../src/main/core/test-support/model-stand-ins/model-script';
import { startOpenAiResponsesStandIn, type OpenAiResponsesStandIn } from '../../src/main/core/test-support/model-stand-ins/openai-responses';
import { makeRepo, scriptedAgent, startDesk, type Desk } from '../../src/main/core/test-support/desk-harness';
import { isolatedAgentSpec, REAL_AGENTS } from './real-agents';

export const CODEX = REAL_AGENTS.find((agent) => agent.id === 'codex-acp')!;

/** The variable the config names as the provider's `env_key`: a gateway's own key, here a dummy one. */
const KEY_VARIABLE = 'LITELLM_API_KEY';

/**
 * What a person writes into ~/.codex/config.toml to use a gateway: a provider with the gateway's base URL, the
 * Responses wire API and the variable holding its key, chosen as the default provider with a model the gateway serves.
 */
export function codexGatewayConfig(standIn: Pick<OpenAiResponsesStandIn, 'baseUrl' | 'model'>): string {
  return [
    `model = "${standIn.model}"`,
    'model_provider = "gateway"',
    '',
    '[model_providers.gateway]',
    'name = "Local gateway"',
    `base_url = "${standIn.baseUrl}"`,
    'wire_api = "responses"',
    `env_key = "${KEY_VARIABLE}"`,
    '',
  ].join('\n');
}

export interface CodexDesk {
  desk: Desk & { root: string };
  standIn: OpenAiResponsesStandIn;
  home: string;
  close(): Promise<void>;
}

export interface CodexDeskOptions {
  steps: readonly ModelStep[];
  fallback?: ModelStep;
  /** How the policy treats each capability. */
  capabilities: Partial<Record<Capability, CapabilityMode>>;
  /** Whether the policy's `network` names the stand-in's `127.0.0.1:PORT` (default) or nothing at all. */
  standInReachable?: boolean;
  sandbox?: SandboxStatus;
}

export async function startCodexDesk(options: CodexDeskOptions): Promise<CodexDesk> {
  const standIn = await startOpenAiResponsesStandIn({ steps: options.steps, ...(options.fallback && { fallback: options.fallback }) });
  // The agent's empty home sits in the desk's temp dir, so closing the desk removes it too.
  const root = mkdtempSync(join(tmpdir(), 'desk-codex-'));
  const home = join(root, 'home');
  mkdirSync(join(home, '.codex'), { recursive: true });
  writeFileSync(join(home, '.codex', 'config.toml'), codexGatewayConfig(standIn));
  const isolated = isolatedAgentSpec(CODEX, home);
  // As an agents.json entry would pass it: the key the config names, nothing else of the machine's.
  const agent = { ...isolated, env: { ...isolated.env, [KEY_VARIABLE]: 'sk-dummy-gateway-key' } };
  const policy: z.input<typeof PolicyFile> = { version: 1, defaults: { capabilities: options.capabilities, network: options.standInReachable === false ? [] : [`127.0.0.1:${standIn.port}`] } };
  try {
    const desk = await startDesk({
      reuse: { root, repo: makeRepo(root), dataDir: join(root, 'data') },
      agents: [scriptedAgent(), agent],
      policy,
      ...(options.sandbox && { sandbox: options.sandbox }),
    });
    return { desk, standIn, home, close: () => standIn.close() };
  } catch (error) {
    await standIn.close();
    throw error;
  }
}

/** The agent's updates of a kind, from a task's events. */
export function agentUpdates<K extends string>(events: TaskEvent[], kind: K): Extract<TaskEvent, { type: 'agent' }>['update'][] {
  return events.flatMap((event) => (event.type === 'agent' && event.update.kind === kind ? [event.update] : []));
}

/**
 * The status a task ends in; if it does not end in time, fails with the task's log lines (the desk's and the
 * agent's own), so a hang says where it hangs.
 */
export async function endOf(desk: Desk, id: string, limitMs: number): Promise<string> {
  try {
    return await desk.waitForStatus(id, ['completed', 'error', 'cancelled'], limitMs);
  } catch (error) {
    const events = (await desk.api('GET', `/api/tasks/${encodeURIComponent(id)}/events?limit=5000`)).json.events as { event: TaskEvent }[];
    const lines = events.flatMap(({ event }) => (event.type === 'log' ? [`${event.source}: ${event.text}`] : []));
    throw new Error(`${(error as Error).message}\nIts log:\n${lines.slice(-40).join('\n')}`);
  }
}
