// Runs one git command through simple-git and reports its exit code and output, so callers can
// tell "answered no" (exit 1) from "failed" themselves. Every command carries the app's config.
import { existsSync } from 'node:fs';
import { GitPluginError, simpleGit } from 'simple-git';
import { GitCommandError } from './git-errors';

export interface GitResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface GitCallOptions {
  /** Written to git's stdin (e.g. a commit message for `commit -F -`). */
  input?: string;
  /** Extra `name=value` settings passed with `-c` for this command only. */
  config?: readonly string[];
}

export interface GitRunner {
  /** Runs git in `cwd`; resolves whatever the exit code. Rejects only when git could not run. */
  exec(cwd: string, args: readonly string[], options?: GitCallOptions): Promise<GitResult>;
  /** Runs git in `cwd` and returns stdout without its trailing newline; throws GitCommandError on a non-zero exit. */
  run(cwd: string, args: readonly string[], options?: GitCallOptions): Promise<string>;
}

export interface GitRunnerOptions {
  /** An empty directory used as core.hooksPath, so no repository hook runs for the app's commands. */
  hooksDir?: string;
}

// simple-git strips every ambient GIT_* variable from the child's environment unless named here.
// Only harmless ones pass: a person's own identity, and the switch that skips the system config.
const ALLOWED_ENVIRONMENT = [
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_CONFIG_NOSYSTEM',
];

export function createGitRunner(options: GitRunnerOptions = {}): GitRunner {
  const baseConfig = [
    // A user's global commit.gpgsign=true would make every app commit wait on a passphrase prompt.
    'commit.gpgsign=false',
    // Auto-gc can detach into the background and race with worktree add/remove; the person's own
    // git commands keep the repository packed.
    'gc.auto=0',
    ...(options.hooksDir ? [`core.hooksPath=${options.hooksDir}`] : []),
  ];

  const exec = async (cwd: string, args: readonly string[], call: GitCallOptions = {}): Promise<GitResult> => {
    // simple-git refuses to construct on a missing directory; report it like any other git failure.
    if (!existsSync(cwd)) throw new GitCommandError(args, undefined, `the directory ${cwd} does not exist`);
    let outcome: { exitCode: number; stdErr: Buffer[] } | undefined;
    const git = simpleGit({
      baseDir: cwd,
      config: [...baseConfig, ...(call.config ?? [])],
      // simple-git blocks `-c core.hooksPath` because a hooks path can run arbitrary programs. Ours
      // points at an empty directory the app owns, which is exactly what disables hooks, and no
      // caller-supplied text ever reaches the config list, so only this category is unlocked.
      unsafe: { allowUnsafeHooksPath: true },
      allowEnvironment: ALLOWED_ENVIRONMENT,
      input: call.input === undefined ? undefined : () => call.input,
      // Keep the outcome and report success, so a non-zero exit reaches the caller as data. A
      // refusal by one of simple-git's own guards is still an error.
      errors: (error, result) => {
        if (error instanceof GitPluginError) return error;
        outcome = result;
        return undefined;
      },
    });
    try {
      const stdout = await git.raw([...args]);
      return {
        exitCode: outcome?.exitCode ?? 0,
        stdout,
        stderr: outcome ? Buffer.concat(outcome.stdErr).toString('utf8') : '',
      };
    } catch (error) {
      throw new GitCommandError(args, undefined, error instanceof Error ? error.message : String(error));
    }
  };

  const run = async (cwd: string, args: readonly string[], call?: GitCallOptions): Promise<string> => {
    const result = await exec(cwd, args, call);
    if (result.exitCode !== 0) throw new GitCommandError(args, result.exitCode, result.stderr || result.stdout);
    return result.stdout.replace(/\r?\n$/, '');
  };

  return { exec, run };
}
