// Where the seed's Kandev example agent is (kandev-seed-agent.sh, the protocol text's script copied verbatim), and
// whether the tools it calls are installed: its specs skip naming the install line where they are missing, except in
// CI (DESK_REQUIRE_KANDEV_TOOLS=1, set by .ci/run), where they fail instead of passing silently.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export const KANDEV_SEED_AGENT = resolve(import.meta.dirname, 'kandev-seed-agent.sh');

/** The tools the script runs that a fresh machine may lack, and the Debian/Ubuntu package of each. */
const SEED_TOOLS = [{ tool: 'jq', pkg: 'jq' }, { tool: 'uuidgen', pkg: 'uuid-runtime' }];

/** Why the seed's agent cannot run here (the tools missing and how to install them), or undefined when it can. */
export function missingSeedAgentTools(pathVariable = process.env.PATH ?? ''): string | undefined {
  const missing = SEED_TOOLS.filter(({ tool }) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore', env: { ...process.env, PATH: pathVariable } });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return undefined;
  return `the seed's Kandev agent needs ${missing.map(({ tool }) => tool).join(' and ')}: apt-get install -y ${missing.map(({ pkg }) => pkg).join(' ')}`;
}

/**
 * For `describe.skipIf`: why the seed's specs skip here, or false when they run. Throws instead when
 * DESK_REQUIRE_KANDEV_TOOLS=1 (CI), so a missing tool never passes silently there.
 */
export function seedAgentSkip(environment: NodeJS.ProcessEnv = process.env): string | false {
  const missing = missingSeedAgentTools(environment.PATH ?? '');
  if (missing === undefined) return false;
  if (environment.DESK_REQUIRE_KANDEV_TOOLS === '1') throw new Error(`The Kandev seed tests must run here (DESK_REQUIRE_KANDEV_TOOLS=1), but ${missing}.`);
  return missing;
}
