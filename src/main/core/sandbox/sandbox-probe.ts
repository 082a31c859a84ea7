// Finds out once, at start, whether this machine can confine agents: bubblewrap present and allowed to
// make the namespaces the desk needs. The answer says why not and what to do, for the start line and Settings.
import { execFile } from 'node:child_process';
import { findOnPath } from '../host/find-on-path';
import type { SandboxStatus } from '../../../shared/sandbox';

export interface ProbeOptions {
  platform?: NodeJS.Platform;
  /** PATH to look bwrap up in; default: the desk's. */
  path?: string;
}

/** Runs bubblewrap once with the namespaces a task sandbox uses, and reports what happened. */
export async function probeSandbox(options: ProbeOptions = {}): Promise<SandboxStatus> {
  const platform = options.platform ?? process.platform;
  if (platform === 'darwin') {
    return unavailable('Agents cannot be confined on macOS yet (sandbox-exec support is not built).', 'Run the desk on Linux with bubblewrap for confined agents, or accept unconfined agents.');
  }
  if (platform !== 'linux') {
    return unavailable(`Agents cannot be confined on ${platform}.`, 'Run the desk on Linux (or in WSL 2) with bubblewrap for confined agents.');
  }
  const bwrap = findOnPath('bwrap', options.path ?? process.env.PATH ?? '');
  if (!bwrap) {
    return unavailable('bubblewrap (bwrap) is not installed.', 'Install it: sudo apt-get install bubblewrap (Debian/Ubuntu), sudo dnf install bubblewrap (Fedora), sudo pacman -S bubblewrap (Arch); then restart the desk.');
  }
  // One process: the sandbox runs bwrap itself to say its version (bwrap answers --version before anything that needs
  // privileges), so a start forks once for both answers.
  const trial = await run(bwrap, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-net', '--die-with-parent', '--cap-drop', 'ALL', bwrap, '--version']);
  if (trial.code !== 0) {
    return unavailable(`bubblewrap cannot create a sandbox here: ${trial.stderr.trim() || `exit code ${trial.code}`}.`, namespaceFix(trial.stderr));
  }
  return { kind: 'bubblewrap', available: true, version: trial.stdout.trim() || 'bubblewrap', path: bwrap };
}

function unavailable(reason: string, fix: string): SandboxStatus {
  return { kind: 'none', available: false, reason, fix };
}

/** The usual causes of "cannot create namespaces", with the switch that fixes each. */
function namespaceFix(stderr: string): string {
  if (/uid map|setting up uid|Operation not permitted|No permissions/i.test(stderr)) {
    return 'Allow unprivileged user namespaces: sudo sysctl kernel.unprivileged_userns_clone=1 (Debian), or on Ubuntu 24.04+ sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0 (or an AppArmor profile for bwrap); inside a container, run it with --privileged or give it user namespaces.';
  }
  return 'Check that `bwrap --ro-bind / / --unshare-pid --unshare-net true` works for the user running the desk.';
}

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 10_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) || (error && !stderr ? error.message : '') });
    });
  });
}
