// Starts git for a task's exchange repository with an environment of the desk's making: nothing
// inherited that git would read as an instruction (GIT_DIR, GIT_PROTOCOL, a person's global config…),
// so the exchange behaves the same whoever started the desk.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { gitFailed } from '../../git/git-errors';

/** The parent's environment minus every GIT_* variable, plus settings that keep system and global config out. */
export function exchangeEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.toUpperCase().startsWith('GIT_')) env[key] = value;
  }
  env.GIT_CONFIG_NOSYSTEM = '1';
  env.GIT_CONFIG_GLOBAL = '/dev/null';
  env.GIT_TERMINAL_PROMPT = '0';
  return { ...env, ...extra };
}

/** Starts `git <args>`; the caller streams its stdin and stdout. */
export function startGit(args: readonly string[], extraEnv: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn('git', [...args], { env: exchangeEnvironment(extraEnv), stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
}

/** Runs `git <args>` to the end; returns stdout without its trailing newline, throws `git_failed` on a non-zero exit. */
export function runGit(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = startGit(args);
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin.end();
    child.on('error', (error) => reject(gitFailed(args, undefined, error.message)));
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(stdout).toString('utf8').replace(/\r?\n$/, ''));
      else reject(gitFailed(args, code ?? undefined, Buffer.concat(stderr).toString('utf8')));
    });
  });
}
