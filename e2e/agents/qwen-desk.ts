// Qwen Code set up as a user with an OpenAI-compatible gateway sets it up, pointed at the Chat Completions stand-in,
// and what its tests look at from outside: its agent entry, its settings file, the processes it leaves.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentSpec } from '../../src/main/core/agents/agent-spec';
import type { OpenAiChatStandIn } from '../../src/main/core/test-support/model-stand-ins/openai-chat';
import { isolatedAgentSpec, REAL_AGENTS, type RealAgent } from './real-agents';

export const QWEN: RealAgent = REAL_AGENTS.find((agent) => agent.id === 'qwen') ?? (() => { throw new Error('qwen is not among REAL_AGENTS'); })();

/** The dummy key: qwen wants one to pick its OpenAI auth, the stand-in never checks it. */
export const DUMMY_KEY = 'sk-stand-in';

const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'https_proxy', 'http_proxy', 'all_proxy'];

/**
 * The agent entry an `agents.json` user would write: qwen's known command, with the gateway's base URL, a key and
 * the model in its environment (qwen reads OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL). Unconfined, the
 * isolated environment's dead proxy is taken away: qwen sends every request through a proxy it is given, NO_PROXY
 * or not, so it would never reach the stand-in. Confined, the sandbox puts its own proxy in these variables anyway.
 */
export function qwenAgentSpec(home: string, standIn: OpenAiChatStandIn, options: { confined: boolean }): AgentSpec {
  const spec = isolatedAgentSpec(QWEN, home);
  const noProxy = options.confined ? {} : Object.fromEntries(PROXY_VARIABLES.map((name) => [name, '']));
  return { ...spec, env: { ...spec.env, ...noProxy, OPENAI_BASE_URL: standIn.baseUrl, OPENAI_API_KEY: DUMMY_KEY, OPENAI_MODEL: standIn.model } };
}

/**
 * `~/.qwen/settings.json` as a gateway user writes it: the OpenAI auth type chosen (so `session/new` needs no
 * login), the gateway's model, and usage statistics off (they would go to Alibaba's servers). A user who wants
 * model errors to end sooner adds `model.generationConfig.maxRetries` (the OpenAI client's retries per attempt and
 * qwen's rate-limit retries; default 3 and 10); the spec keeps qwen's defaults.
 */
export function writeQwenSettings(home: string, model: string): string {
  const dir = join(home, '.qwen');
  mkdirSync(dir, { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'openai' } },
    model: { name: model },
    privacy: { usageStatisticsEnabled: false },
  };
  const path = join(dir, 'settings.json');
  writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`);
  return path;
}
