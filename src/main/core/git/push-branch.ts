// Pushes one branch to one of the repository's configured remotes after an approval: never forced, never waiting on a
// prompt, bounded in time, and with nothing the repository's config could name run on this machine.
import type { GitRepo, GitRunner } from './git-runner';

/** How long a push may take before it is ended and reported as failed. */
export const PUSH_TIMEOUT_MS = 60_000;

export interface PushResult { ok: boolean; message: string }

/**
 * `git push <remote> refs/heads/<branch>:refs/heads/<branch>`: a plain refspec (no `+`, no `--force`), so a remote
 * that moved on refuses it. `remote` must already be checked to be a plain remote name.
 */
export async function pushBranch(git: GitRunner, repo: GitRepo, remote: string, branch: string, timeoutMs = PUSH_TIMEOUT_MS): Promise<PushResult> {
  const ref = `refs/heads/${branch}`;
  const config = [
    // Programs the repository's config could name for a push: transports, helpers, the remote's receive-pack.
    'protocol.ext.allow=never',
    'credential.helper=',
    'core.askPass=',
    'core.sshCommand=ssh -o BatchMode=yes',
    `remote.${remote}.receivepack=git-receive-pack`,
    `remote.${remote}.mirror=false`,
    'push.recurseSubmodules=no',
  ];
  const args = ['push', '--porcelain', '--no-verify', '--end-of-options', remote, `${ref}:${ref}`];
  try {
    const result = await git.exec(repo, args, { config, timeoutMs });
    if (result.exitCode === 0) return { ok: true, message: `Pushed ${branch} to ${remote}.` };
    return { ok: false, message: `Push of ${branch} to ${remote} failed: ${reasonOf(result.stdout, result.stderr)}` };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const timedOut = /timeout/i.test(text);
    return { ok: false, message: `Push of ${branch} to ${remote} failed: ${timedOut ? `no answer within ${Math.round(timeoutMs / 1000)} s` : text}` };
  }
}

/** git's reason in a line: the porcelain status of the ref (`[rejected] (fetch first)`), else its first error. */
export function reasonOf(stdout: string, stderr: string): string {
  const refLine = stdout.split('\n').find((line) => line.startsWith('!'));
  const summary = refLine?.split('\t')[2]?.trim();
  if (summary) {
    const rejected = /\[rejected\]\s*\((fetch first|non-fast-forward)\)/.exec(summary);
    if (rejected) return `rejected: ${rejected[1]} (the remote has commits this branch lacks; nothing was forced)`;
    return summary;
  }
  const error = stderr.split('\n').map((line) => line.trim()).find((line) => /^(error|fatal):/.test(line));
  return error ?? (stderr.trim() || 'git gave no reason');
}
