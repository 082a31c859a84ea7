// Makes the app's commits work where no git identity is configured (fresh CI machines), without
// ever replacing an identity the person has set.
import type { GitRunner } from './git-runner';

const FALLBACK_NAME = 'Assignment Desk';
const FALLBACK_EMAIL = 'assignment-desk@localhost';

/**
 * `-c` settings to add to a commit or merge run in `cwd`: a fallback `user.name` / `user.email`
 * for whichever of the two the repository (with global and system config) leaves unset.
 */
export async function identityFallbackConfig(git: GitRunner, cwd: string): Promise<string[]> {
  // We set user.* with -c rather than GIT_AUTHOR_*/GIT_COMMITTER_* in the environment: simple-git
  // rejects a hand-built environment that still holds any guarded variable (EDITOR, PAGER, GIT_*)
  // from the parent, and a -c value still yields to a person's own GIT_AUTHOR_* variables.
  const found = await git.exec(cwd, ['config', '--get-regexp', '^user\\.(name|email)$']);
  const keys = new Set(
    found.stdout
      .split('\n')
      .filter((line) => line.trim() !== '' && line.includes(' '))
      .map((line) => line.slice(0, line.indexOf(' ')).toLowerCase()),
  );
  return [
    ...(keys.has('user.name') ? [] : [`user.name=${FALLBACK_NAME}`]),
    ...(keys.has('user.email') ? [] : [`user.email=${FALLBACK_EMAIL}`]),
  ];
}
