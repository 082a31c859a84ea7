// A cgroup subtree the person's systemd user manager delegates to the desk: a scope started with Delegate=yes,
// held open by a tiny process that ends with the desk. Task groups are then made inside it as in any v2 tree.
import { execFile, spawn } from 'node:child_process';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface DelegatedScope {
  /** The scope's folder in the v2 tree: task groups go directly below it. */
  base: string;
  /** Where the holding process waits, out of the way of the scope's controllers. */
  holderGroup: string;
  stop(): void;
}

/**
 * Starts (after stopping one a killed desk left, with whatever still ran in it) the unit `unit`.scope and answers
 * its folder; throws with what systemd said when the user manager refuses.
 */
export async function startDelegatedScope(systemdRun: string, v2Mount: string, unit: string, options: { timeoutMs?: number } = {}): Promise<DelegatedScope> {
  await new Promise((resolve) => { execFile('systemctl', ['--user', 'stop', `${unit}.scope`], { timeout: 10_000 }, resolve); });
  // `read` returns when the desk's end of the pipe closes: the holder never outlives the desk.
  const holder = spawn(systemdRun, ['--user', '--scope', '--quiet', '--collect', '-p', 'Delegate=yes', `--unit=${unit}`, '--', '/bin/sh', '-c', 'read _ || true'], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  holder.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const stop = () => { holder.stdin.destroy(); holder.kill('SIGKILL'); };
  try {
    const path = await scopePathOf(holder, `${unit}.scope`, options.timeoutMs ?? 5000, () => stderr);
    const base = join(v2Mount, path);
    const holderGroup = join(base, 'holder');
    await mkdir(holderGroup, { recursive: true });
    await writeFile(join(holderGroup, 'cgroup.procs'), String(holder.pid));
    return { base, holderGroup, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/** Waits until systemd-run has put itself in the scope (it then runs the holder under the same pid). */
async function scopePathOf(holder: ReturnType<typeof spawn>, scope: string, timeoutMs: number, stderr: () => string): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (holder.exitCode !== null || holder.pid === undefined) break;
    const text = await readFile(`/proc/${holder.pid}/cgroup`, 'utf8').catch(() => '');
    const path = /^0::(.*)$/m.exec(text)?.[1];
    if (path?.endsWith(`/${scope}`)) return path;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`systemd-run --user --scope did not start ${scope}: ${stderr().trim() || 'no answer from the user manager'}`);
}
