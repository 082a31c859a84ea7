// The pipeline bench's baseline: the least a program could do for one task by hand — `git worktree add`, one bubblewrap
// run of node writing the file, `git add`, `git commit` — at the same concurrency as the desk, on the same kind of repo.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentEnvironment, bwrapArguments, makeRepo } from '../src/main/core/testing';

/** What each task writes, on both sides: one small file named after the task. */
export const taskFile = (index: number) => ({ path: `out-${index}.txt`, text: `task ${index}` });

const run = (command: string, args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<void> => new Promise((resolveRun, reject) => {
  execFile(command, args, { cwd, env }, (error, _stdout, stderr) => (error ? reject(new Error(`${command} ${args.slice(0, 3).join(' ')} failed: ${stderr || error.message}`)) : resolveRun()));
});

/** Runs `work(0..count-1)` with at most `concurrency` at a time; resolves once all are done. */
export async function inParallel(count: number, concurrency: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

/**
 * A repository like the desk's (one commit on `main`) and a function doing one task by hand in it. The sandbox is
 * bubblewrap with the desk's own flags (PID namespace, no network, new session, read-only root) and one writable
 * place, the worktree: what the desk adds beyond that (hidden data dir, state dirs, read-only git dir) is its overhead.
 * Its node gets the environment the desk gives an agent (a short allowlist), not the bench's own: a variable such as
 * NODE_EXTRA_CA_CERTS, which the desk never passes on, makes every Node start parse a certificate bundle (on the build
 * machine about 35 ms of CPU), and the baseline would pay a cost the desk's agent does not.
 */
export function baselineRepo(bwrap: string): { doTask(index: number): Promise<void>; close(): void } {
  const root = mkdtempSync(join(tmpdir(), 'desk-bench-pipeline-raw-'));
  const repo = makeRepo(root);
  mkdirSync(join(root, 'worktrees'));
  const identity = ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.test'];
  const nodeEnvironment = agentEnvironment(process.env, { envAllowlist: [], env: {} });
  // Two `git worktree add` at once in one repository can fail ("failed to read .git/worktrees/…/commondir"): one at a
  // time, as the desk adds them too.
  let adding: Promise<unknown> = Promise.resolve();
  return {
    async doTask(index) {
      const worktree = join(root, 'worktrees', `task-${index}`);
      const file = taskFile(index);
      const added = adding.then(() => run('git', ['worktree', 'add', '--quiet', '-b', `raw/task-${index}`, worktree, 'main'], repo));
      adding = added.catch(() => undefined);
      await added;
      const write = `require('node:fs').writeFileSync(${JSON.stringify(file.path)}, ${JSON.stringify(`${file.text}\n`)})`;
      await run(bwrap, bwrapArguments({ bwrap, cwd: worktree, network: 'none', newSession: true, mounts: [{ kind: 'writable', path: worktree }] }, process.execPath, ['-e', write]), worktree, nodeEnvironment);
      await run('git', ['add', '--all'], worktree);
      await run('git', [...identity, 'commit', '--quiet', '--no-verify', '-m', `Task ${index}`], worktree);
    },
    close: () => rmSync(root, { recursive: true, force: true }),
  };
}
