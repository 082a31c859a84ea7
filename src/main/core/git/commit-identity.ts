// Makes the app's commits carry the person's identity although the app's git reads no global config,
// and work where no identity is configured at all (fresh CI machines).
import { readPersonalConfig, type GitRepo, type GitRunner } from './git-runner';

const FALLBACK_NAME = 'Assignment Desk';
const FALLBACK_EMAIL = 'assignment-desk@localhost';

export interface Identity { name: string; email: string }

/**
 * The person's identity as their own git sees it from `repoRoot` (system, global and repository
 * config), read once when the desk starts; the fallback for whatever is unset.
 */
export async function readIdentity(repoRoot: string): Promise<Identity> {
  const [name, email] = await Promise.all([readPersonalConfig(repoRoot, 'user.name'), readPersonalConfig(repoRoot, 'user.email')]);
  return { name: name ?? FALLBACK_NAME, email: email ?? FALLBACK_EMAIL };
}

/**
 * `-c` settings to add to a commit or merge on `repo`: `user.name` / `user.email` from `identity`
 * for whichever of the two the repository config (which the app's git still reads) leaves unset.
 */
export async function identityConfig(git: GitRunner, repo: GitRepo, identity: Identity): Promise<string[]> {
  // We set user.* with -c rather than GIT_AUTHOR_*/GIT_COMMITTER_* in the environment, so a -c value
  // still yields to a person's own GIT_AUTHOR_* variables. The keys come from the runner's kept look-up: no process.
  const keys = new Set(await git.configuredKeys(repo));
  return [
    ...(keys.has('user.name') ? [] : [`user.name=${identity.name}`]),
    ...(keys.has('user.email') ? [] : [`user.email=${identity.email}`]),
  ];
}
