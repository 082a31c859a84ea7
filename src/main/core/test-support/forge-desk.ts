// A desk whose repository's `origin` fetches from a forge's URL (GitHub or GitLab) and pushes to a bare repository in
// temp, with a stand-in of that forge's API that reads each request's head commit from the bare repository.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from '../git/git-test-fixture';
import { destroyDesk, startDesk, type Desk, type DeskOptions } from './desk-harness';
import { FORGE_TEST_TOKEN, startForgeStandIn, type ForgeStandIn } from './forge-stand-in';

export type ForgeKindUnderTest = 'github' | 'gitlab';
export const FORGE_REPOSITORY = 'acme/widgets';

export const FORGE_SETUP: Record<ForgeKindUnderTest, { fetchUrl: string; tokenVar: string; apiVar: string; noun: string }> = {
  github: { fetchUrl: `https://github.com/${FORGE_REPOSITORY}.git`, tokenVar: 'GH_TOKEN', apiVar: 'GITHUB_API_URL', noun: 'pull request' },
  gitlab: { fetchUrl: `https://gitlab.com/${FORGE_REPOSITORY}.git`, tokenVar: 'GITLAB_TOKEN', apiVar: 'GITLAB_API_URL', noun: 'merge request' },
};

export interface ForgeDesk {
  d: Desk & { root: string };
  forge: ForgeStandIn;
  bare: string;
  lines: string[];
  /** Stops the desk and starts it again over the same repository and data (as after a crash or a quit); `d` is the new one. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** `pollMs` defaults to an hour, so no poll steals an answer meant for a route. */
export async function startForgeDesk(kind: ForgeKindUnderTest, options: DeskOptions & { pollMs?: number } = {}): Promise<ForgeDesk> {
  const holder = mkdtempSync(join(tmpdir(), 'desk-forge-remote-'));
  const bare = join(holder, 'remote.git');
  git(holder, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  const forge = await startForgeStandIn(kind, FORGE_REPOSITORY, { gitDir: bare });
  const lines: string[] = [];
  const { tokenVar, apiVar, fetchUrl } = FORGE_SETUP[kind];
  const deskOptions: DeskOptions = {
    ...options,
    env: { [tokenVar]: FORGE_TEST_TOKEN, [apiVar]: forge.apiBase },
    pullRequestPollMs: options.pollMs ?? 3_600_000,
    log: (line) => lines.push(line),
  };
  const d = await startDesk(deskOptions);
  git(d.repo, 'remote', 'add', 'origin', fetchUrl);
  git(d.repo, 'remote', 'set-url', '--push', 'origin', bare);
  const opened: ForgeDesk = {
    d, forge, bare, lines,
    async restart() {
      const { root, repo, dataDir } = opened.d;
      await opened.d.close();
      opened.d = await startDesk({ ...deskOptions, reuse: { root, repo, dataDir } });
    },
    async close() {
      await destroyDesk(opened.d);
      await forge.close();
      rmSync(holder, { recursive: true, force: true });
    },
  };
  return opened;
}

/** Submits a task that writes `<id>.txt` and waits until it completed; returns its detail. */
export async function completedTask(d: Desk, id: string, prompt = `write ${id}.txt done`): Promise<{ branch: string; commit: string }> {
  const submitted = await d.api('POST', '/', { id, prompt });
  if (submitted.status >= 300) throw new Error(submitted.text);
  await d.waitForStatus(id, 'completed');
  return (await d.api('GET', `/tasks/${id}`)).json;
}
