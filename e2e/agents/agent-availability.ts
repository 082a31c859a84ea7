// Whether a pinned vendor agent is installed, and a `describe` that runs its specs, skips them saying how to install
// it, or (with DESK_REQUIRE_AGENTS=1, as CI sets) fails them, so a missing agent never passes silently in CI.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { AGENTS_BIN_DIR, AGENTS_CACHE_DIR, type RealAgent } from './real-agents';

/** Why the agent cannot run here, or undefined when its pinned version is installed in the cache. */
export function missingAgentReason(agent: RealAgent): string | undefined {
  const installed = installedVersion(agent);
  if (installed === undefined || !existsSync(join(AGENTS_BIN_DIR, agent.bin))) {
    return `${agent.npmPackage}@${agent.version} is not installed; run \`npm run agents:install\` to install the pinned agents`;
  }
  if (installed !== agent.version) {
    return `${agent.npmPackage} ${installed} is installed, the specs pin ${agent.version}; run \`npm run agents:install\``;
  }
  return undefined;
}

export function installedVersion(agent: RealAgent): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(AGENTS_CACHE_DIR, 'node_modules', agent.npmPackage, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

/** How long one real agent's test may take: it waits on the agent's start and, in the failure cases, on its own retries. */
export const REAL_AGENT_TEST_MS = 240_000;

/**
 * `describe` for specs that need `agent`, its tests given REAL_AGENT_TEST_MS: skipped with the reason where the agent
 * is missing, failed instead when DESK_REQUIRE_AGENTS=1.
 */
export function describeWithAgent(agent: RealAgent, name: string, body: () => void): void {
  const missing = missingAgentReason(agent);
  if (missing === undefined) {
    describe(name, { timeout: REAL_AGENT_TEST_MS }, body);
  } else if (process.env.DESK_REQUIRE_AGENTS === '1') {
    describe(name, () => {
      it('has its agent installed (DESK_REQUIRE_AGENTS=1)', () => {
        throw new Error(missing);
      });
    });
  } else {
    describe.skip(`${name} — skipped: ${missing}`, body);
  }
}
