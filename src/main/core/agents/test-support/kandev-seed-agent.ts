// Where the seed's Kandev example agent is (kandev-seed-agent.sh, the protocol text's script copied verbatim), and
// the check that the tools it calls are installed, so a machine without them fails with the fix instead of a hang.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export const KANDEV_SEED_AGENT = resolve(import.meta.dirname, 'kandev-seed-agent.sh');

/** Throws naming the packages to install when `jq` or `uuidgen` (which the script runs) is missing. */
export function assertSeedAgentTools(): void {
  const missing = ['jq', 'uuidgen'].filter((tool) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0) {
    throw new Error(`The seed's Kandev agent needs ${missing.join(' and ')}: install them (Debian/Ubuntu: apt-get install -y jq uuid-runtime).`);
  }
}
