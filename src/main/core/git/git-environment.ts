// The environment every git process of the desk gets: nothing ambient that could steer git, the repository named
// outright, fixed settings as GIT_CONFIG_* pairs. Apart from the runner (and simple-git) so that the headless entry
// can start its first git process with it before the core's code has loaded (repository-discovery.ts).

/**
 * Where a command runs, as the desk knows it: never found by git from a `.git` file or directory
 * in the work tree (an agent can rewrite those).
 */
export interface GitRepo {
  /** The git dir: the repository's own, or `<common dir>/worktrees/<name>` for a linked worktree. */
  gitDir: string;
  /** The checked-out files; absent for commands that need none. */
  workTree?: string;
  /** The repository's shared git dir, when `gitDir` is a linked worktree's. */
  commonDir?: string;
}

// simple-git strips every ambient GIT_* variable from the child's environment unless named here.
// Ambient ones that pass: a person's own identity. The rest are set by the desk itself.
const AMBIENT_ALLOWED = ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL'];
// Variables simple-git refuses in a hand-built environment (besides GIT_*): never passed on.
const GUARDED_AMBIENT = new Set(['editor', 'pager', 'visual', 'prefix', 'ssh_askpass']);

/**
 * The child's environment: the parent's minus anything git or simple-git would read as an
 * instruction, plus the repository named outright and the settings passed as GIT_CONFIG_COUNT
 * pairs (names and values travel apart, so no driver name can be misread).
 */
export function environmentFor(repo: GitRepo | undefined, globalConfig: string, settings: readonly (readonly [string, string])[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    const lower = key.toLowerCase();
    if (GUARDED_AMBIENT.has(lower)) continue;
    if (lower.startsWith('git_') && !AMBIENT_ALLOWED.includes(key.toUpperCase())) continue;
    env[key] = value;
  }
  if (repo) {
    env.GIT_DIR = repo.gitDir;
    if (repo.workTree !== undefined) env.GIT_WORK_TREE = repo.workTree;
    if (repo.commonDir !== undefined) env.GIT_COMMON_DIR = repo.commonDir;
  }
  env.GIT_CONFIG_NOSYSTEM = '1';
  env.GIT_CONFIG_GLOBAL = globalConfig;
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_CONFIG_COUNT = String(settings.length);
  settings.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}
