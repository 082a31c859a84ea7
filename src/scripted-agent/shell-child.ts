// Runs a script's shell command as our own child process, for clients that offer no terminal.
import type { CommandOutcome } from './script-sink';
import { throwIfCancelled } from './turn-cancellation';

const isWindows = process.platform === 'win32';
/** Keeps a runaway command from filling the agent's memory; the tail is what people look at. */
const MAX_OUTPUT_CHARS = 1_000_000;

/** The program and arguments that run one command line in the platform's shell. */
export function shellInvocation(command: string): { command: string; args: string[] } {
  return isWindows ? { command: 'cmd', args: ['/c', command] } : { command: 'sh', args: ['-c', command] };
}

/** Runs `command` in `cwd` and resolves with stdout and stderr interleaved; rejects if it cannot start. */
export async function runShellChild(command: string, cwd: string, signal: AbortSignal): Promise<CommandOutcome> {
  const shell = shellInvocation(command);
  // Loaded with the first command: the desk offers terminals, so most runs never need it, and every start would pay.
  const { spawn } = await import('node:child_process');
  // A cancel that came while it loaded: start nothing that no abort would stop.
  throwIfCancelled(signal);
  return new Promise((resolve, reject) => {
    const child = spawn(shell.command, shell.args, {
      cwd,
      // Our stdin carries the protocol; the command must not read from it.
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a cancel stops whatever the shell started too.
      detached: !isWindows,
      windowsHide: true,
    });
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.length > MAX_OUTPUT_CHARS) output = output.slice(-MAX_OUTPUT_CHARS);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);

    const stop = (): void => {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        if (isWindows) child.kill();
        else process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    };
    signal.addEventListener('abort', stop, { once: true });
    child.once('error', (error) => {
      signal.removeEventListener('abort', stop);
      reject(error);
    });
    child.once('close', (exitCode) => {
      signal.removeEventListener('abort', stop);
      resolve({ output, exitCode });
    });
  });
}
