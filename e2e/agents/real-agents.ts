// The real ACP agents `npm run test:agents` installs from npm (exact versions), where they go, and how the specs run them hermetically.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AgentSpec } from '../../src/main/core/agents/agent-spec';
import { KNOWN_AGENTS } from '../../src/main/core/agents/known-agents';

export interface RealAgent {
  /** The id of its entry in KNOWN_AGENTS. */
  id: string;
  npmPackage: string;
  /** Pinned: an agent's offline behaviour changes between releases. Each was the newest that runs on Node 20 when pinned. */
  version: string;
  bin: string;
  /** What it does offline with no credentials, where the offline specs (handshake, desk-task) check it. */
  offline?: {
    /** What `session/new` does with no credentials and no network. */
    sessionNew: 'session' | 'auth_required';
    /** How long a task may take to end in `error`: an agent that retries its service takes a while. */
    taskLimitMs: number;
  };
}

/*
 * What each does offline, with an empty HOME and no keys (observed when pinned):
 * - claude-agent-acp: initialize (authMethods []), session/new gives a session; session/prompt fails
 *   at once with -32000 "Authentication required".
 * - opencode: initialize (authMethods [opencode-login]), session/new gives a session on its free
 *   model; session/prompt retries the service with back-off and fails after about 70 s with -32603
 *   "Cannot connect to API".
 * - qwen: initialize (authMethods [openai, qwen-oauth]); session/new fails with -32000
 *   "Authentication required: …" and the auth methods in `data`.
 */
export const REAL_AGENTS: readonly RealAgent[] = [
  { id: 'claude-agent-acp', npmPackage: '@agentclientprotocol/claude-agent-acp', version: '0.49.0', bin: 'claude-agent-acp', offline: { sessionNew: 'session', taskLimitMs: 90_000 } },
  { id: 'opencode', npmPackage: 'opencode-ai', version: '1.18.33', bin: 'opencode', offline: { sessionNew: 'session', taskLimitMs: 180_000 } },
  { id: 'qwen', npmPackage: '@qwen-code/qwen-code', version: '0.15.10', bin: 'qwen', offline: { sessionNew: 'auth_required', taskLimitMs: 90_000 } },
  // Run against stand-in models (see model-stand-ins/): these finish real work.
  { id: 'claude-code-acp', npmPackage: '@zed-industries/claude-code-acp', version: '0.16.2', bin: 'claude-code-acp' },
  { id: 'codex-acp', npmPackage: '@agentclientprotocol/codex-acp', version: '2.6.0', bin: 'codex-acp' },
  { id: 'gemini', npmPackage: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
];

/** The agents whose offline behaviour is pinned down, with it. */
export const OFFLINE_AGENTS = REAL_AGENTS.flatMap((agent) => (agent.offline ? [{ ...agent, ...agent.offline }] : []));

export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');
export const AGENTS_CACHE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'desk-agents');
export const AGENTS_BIN_DIR = join(AGENTS_CACHE_DIR, 'node_modules', '.bin');

/** Every vendor address an agent might call goes through a "proxy" on a closed loopback port, so no test reaches (or depends on) a vendor's service. */
const NO_NETWORK = 'http://127.0.0.1:9';

/**
 * The known agent's spec, launched from the cache, with no API keys and a home of its own: whatever
 * credentials the machine running the tests has, the agent sees none of them.
 */
export function isolatedAgentSpec(agent: RealAgent, home: string): AgentSpec {
  const known = KNOWN_AGENTS.find((entry) => entry.id === agent.id);
  if (!known) throw new Error(`${agent.id} is not a known agent`);
  const { npmPackage: _package, ...spec } = known;
  return { ...spec, command: join(AGENTS_BIN_DIR, agent.bin), envAllowlist: [], env: isolatedEnv(home) };
}

export function isolatedEnv(home: string): Record<string, string> {
  const dirs = { XDG_CONFIG_HOME: '.config', XDG_DATA_HOME: '.local/share', XDG_CACHE_HOME: '.cache', XDG_STATE_HOME: '.local/state', APPDATA: 'AppData/Roaming', LOCALAPPDATA: 'AppData/Local' };
  const env: Record<string, string> = { HOME: home, USERPROFILE: home };
  for (const [name, dir] of Object.entries(dirs)) {
    env[name] = join(home, dir);
    mkdirSync(env[name], { recursive: true });
  }
  for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'https_proxy', 'http_proxy', 'all_proxy']) env[name] = NO_NETWORK;
  // Loopback stays direct: some agents (OpenCode) talk to a server of their own on 127.0.0.1.
  const loopback = 'localhost,127.0.0.1,::1';
  return { ...env, NO_PROXY: loopback, no_proxy: loopback };
}
