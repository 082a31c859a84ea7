// Reads `<dataDir>/runners.json`: which runners the desk may use. A missing file means `local` alone; a broken
// one stops the host with one line naming the file and the field, like the policy file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deskError } from '../../../shared/desk-error';
import { RunnersConfig } from '../../../shared/runners';

export const RUNNERS_FILE = 'runners.json';

/** Read once, at start: no fast path compiled for it (see policy-file.ts). */
const ONCE = { jitless: true } as const;

/**
 * `RunnersConfig.parse({})`, spelled out: most desks have no runners.json, and they start without building the runners'
 * schemas (about 2 ms). runners-file.test.ts holds the two equal.
 */
export function noRunnersFile(): RunnersConfig {
  return {
    default: 'local',
    docker: { enabled: false, network: 'bridge', limits: {}, mounts: [] },
    cluster: {
      enabled: false, orchestrator: 'swarm', network: 'host', helper: '/opt/desk-runner/desk-runner.mjs', node: 'node', limits: {}, mounts: [],
      connectSeconds: 180,
    },
  };
}

const runnersFileInvalid = (message: string) => deskError('invalid', 'runners_file_invalid', message);

export function loadRunnersConfig(dataDir: string): RunnersConfig {
  const path = join(dataDir, RUNNERS_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return noRunnersFile();
    throw runnersFileInvalid(`Cannot read ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw runnersFileInvalid(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = RunnersConfig.safeParse(json, ONCE);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw runnersFileInvalid(`${path}: ${issue?.path.join('.') || '(the file)'}: ${issue?.message ?? 'is invalid'}`);
  }
  return parsed.data;
}

/** The host name cluster containers call the desk by, when one is configured: a host the desk's server answers to. */
export function clusterHosts(runnersConfig: RunnersConfig): string[] {
  const { deskUrl, enabled } = runnersConfig.cluster;
  return enabled && deskUrl !== undefined ? [new URL(deskUrl).hostname] : [];
}
