// Gemini CLI as a user behind a gateway runs it: a desk whose `gemini` entry points it at the Gemini API stand-in
// with GOOGLE_GEMINI_BASE_URL and a dummy key, an empty HOME holding only its settings file, a policy naming the stand-in.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import type { Capability, CapabilityMode, PolicyFile } from '../../src/shared/governance';
import type { SandboxStatus } from '../../src/shared/sandbox';
import { destroyDesk, makeRepo, scriptedAgent, startDesk, type Desk } from '../../src/main/core/test-support/desk-harness';
import { startGeminiStandIn, type GeminiStandIn } from '../../src/main/core/test-support/model-stand-ins/gemini-api';
import type { ModelStep } from '../../src/main/core/test-support/model-stand-ins/model-script';
import { isolatedAgentSpec, REAL_AGENTS } from './real-agents';

export const GEMINI = REAL_AGENTS.find((agent) => agent.id === 'gemini')!;

/**
 * `~/.gemini/settings.json` as a user pointing Gemini CLI at a gateway would write it: a pinned model (so no
 * routing classifier asks a model the gateway may not serve), retries bounded to `maxAttempts` (default 10, with
 * back-off from 5 s to 30 s), shell output as plain text (the pty's output reaches ACP clients as nothing), and
 * nothing that calls Google on its own (usage statistics, update checks).
 */
export function gatewaySettings(maxAttempts: number | undefined): Record<string, unknown> {
  return {
    model: { name: 'gemini-2.5-flash' },
    general: { ...(maxAttempts !== undefined && { maxAttempts }), enableAutoUpdate: false, enableAutoUpdateNotification: false },
    tools: { shell: { enableInteractiveShell: false } },
    privacy: { usageStatisticsEnabled: false },
  };
}

export interface GeminiDesk {
  desk: Desk & { root: string };
  model: GeminiStandIn;
  /** The dummy key the agent was given: unique per desk, so its processes can be found by their environment. */
  key: string;
  /** Closes the desk (ending its agents), removes its temp dir with the agent's home, and stops the stand-in. */
  close(): Promise<void>;
}

export interface GeminiDeskOptions {
  steps: ModelStep[];
  capabilities: Partial<Record<Capability, CapabilityMode>>;
  /** Model attempts per request (`general.maxAttempts`); default 2, one retry; `'gemini-default'` leaves the setting out (10). */
  maxAttempts?: number | 'gemini-default';
  /** What confines the agent; default: the machine's sandbox (bubblewrap where it works). */
  sandbox?: SandboxStatus;
}

/** A desk with Gemini CLI pointed at a fresh stand-in, the policy letting it reach the stand-in's port and nothing else. */
export async function startGeminiDesk(options: GeminiDeskOptions): Promise<GeminiDesk> {
  const model = await startGeminiStandIn(options.steps);
  const root = mkdtempSync(join(tmpdir(), 'desk-gemini-'));
  const home = join(root, 'home');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(gatewaySettings(options.maxAttempts === 'gemini-default' ? undefined : options.maxAttempts ?? 2), null, 2));
  const spec = isolatedAgentSpec(GEMINI, home);
  // What an agents.json entry for Gemini behind a gateway sets: the gateway's address and a key (any, for the stand-in).
  const key = `stand-in-key-${randomUUID()}`;
  spec.env = { ...spec.env, GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_API_KEY: key };
  const policy: z.input<typeof PolicyFile> = { version: 1, defaults: { capabilities: options.capabilities, network: [`127.0.0.1:${model.port}`] } };
  const desk = await startDesk({
    reuse: { root, repo: makeRepo(root), dataDir: join(root, 'data') },
    agents: [scriptedAgent(), spec],
    policy,
    ...(options.sandbox !== undefined && { sandbox: options.sandbox }),
  });
  return { desk, model, key, close: async () => { await destroyDesk(desk); await model.close(); } };
}
