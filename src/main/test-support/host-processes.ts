// The headless host as a child process, for the specs that run it as a person does (serve.ts from source, the built
// serve.js): started with the arguments given, ready once it prints where it listens, and killed after each test.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface Host { child: ChildProcessWithoutNullStreams; url: string; output: () => string }

/** `node <nodeArgs…> <args…>` children of one spec file; `killAll` in its afterEach. */
export function hostProcesses(nodeArgs: string[]) {
  const running: ChildProcessWithoutNullStreams[] = [];

  function spawnHost(args: string[], env?: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
    const child = spawn(process.execPath, [...nodeArgs, ...args], { stdio: 'pipe', ...(env && { env }) });
    running.push(child);
    return child;
  }

  /** Starts the host and resolves once it prints where it listens; rejects with what it printed if it exits first. */
  function startHost(args: string[], env?: NodeJS.ProcessEnv): Promise<Host> {
    const child = spawnHost(args, env);
    let output = '';
    return new Promise((resolveHost, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Listening on (http:\/\/\S+)/.exec(output);
        if (match) resolveHost({ child, url: match[1] as string, output: () => output });
      });
      child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
    });
  }

  function killAll(): void {
    for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  }

  return { spawnHost, startHost, killAll };
}

/** Polls: the desk runs in another process, whose events reach a test only over HTTP. */
export async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}
