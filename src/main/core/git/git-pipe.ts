// A git process the desk talks to through its pipes (cat-file --batch, check-ignore --stdin, hash-object --stdin-paths):
// one process answers many questions, where the runner starts one per command; and a short script of git commands in
// one `sh`. Both start with the runner's own environment and settings (GitRunner.invocation), so git reads and runs
// what any desk command would.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { gitFailed } from './git-errors';
import type { GitRepo, GitRunner } from './git-runner';

/** A running git whose answers are read as bytes arrive, in the order questions were asked. */
export interface GitPipe {
  /** Writes to git's stdin. */
  write(bytes: Buffer): void;
  /** The next `length` bytes of git's stdout; reads are served in the order they are asked. */
  read(length: number): Promise<Buffer>;
  /** The bytes of git's stdout up to the next `delimiter` byte (which is consumed, not returned). */
  readUntil(delimiter: number): Promise<Buffer>;
  /** Closes stdin and waits for git to end; rejects when it failed. */
  finish(): Promise<void>;
  /** Closes stdin without waiting for git to end: for a git whose every answer has been read. */
  end(): void;
  /** Ends git now (after an error elsewhere). */
  kill(): void;
  /** Lets the desk's process end while git still runs (a git kept for later questions), as an unref'd timer does. */
  unref(): void;
}

interface Waiting { want: number | { delimiter: number }; resolve(bytes: Buffer): void; reject(error: Error): void }

export async function openGitPipe(git: GitRunner, repo: GitRepo, args: readonly string[], options: { cwd?: string; config?: readonly string[] } = {}): Promise<GitPipe> {
  const { args: gitArgs, env } = await git.invocation(repo, args, options.config ? { config: options.config } : {});
  const child: ChildProcessWithoutNullStreams = spawn('git', gitArgs, { cwd: options.cwd ?? repo.workTree ?? repo.gitDir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let buffered: Buffer = Buffer.alloc(0);
  let stderr = '';
  let ended: Error | undefined;
  const waiting: Waiting[] = [];

  const failure = (why: string) => gitFailed(args, undefined, why);
  const serve = () => {
    while (waiting.length > 0) {
      const next = waiting[0] as Waiting;
      let taken: Buffer;
      if (typeof next.want === 'number') {
        if (buffered.length < next.want) break;
        taken = buffered.subarray(0, next.want);
        buffered = buffered.subarray(next.want);
      } else {
        const at = buffered.indexOf(next.want.delimiter);
        if (at === -1) break;
        taken = buffered.subarray(0, at);
        buffered = buffered.subarray(at + 1);
      }
      waiting.shift();
      next.resolve(taken);
    }
    if (ended) for (const left of waiting.splice(0)) left.reject(ended);
  };
  child.stdout.on('data', (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    serve();
  });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
  // git may end before it read everything (an error): a write then fails with EPIPE, reported by the exit instead.
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', (error) => {
      ended = failure(error.message);
      serve();
      reject(ended);
    });
    child.on('close', (code) => {
      ended = code === 0 ? failure('git ended before it answered') : gitFailed(args, code ?? undefined, stderr || 'no message');
      serve();
      resolve(code);
    });
  });
  // Nobody may be waiting when it fails; the rejection is reported through read() and finish().
  exited.catch(() => undefined);

  const ask = (want: Waiting['want']) => new Promise<Buffer>((resolve, reject) => {
    waiting.push({ want, resolve, reject });
    serve();
  });
  return {
    write: (bytes) => { child.stdin.write(bytes); },
    read: (length) => ask(length),
    readUntil: (delimiter) => ask({ delimiter }),
    async finish() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw gitFailed(args, code ?? undefined, stderr || 'no message');
    },
    end() {
      child.stdin.end();
    },
    kill() {
      child.stdin.destroy();
      child.kill('SIGKILL');
    },
    unref() {
      child.unref();
      // The pipes are sockets, which hold the event loop of their own (their stream types do not say so).
      for (const stream of [child.stdin, child.stdout, child.stderr] as unknown as { unref?(): void }[]) stream.unref?.();
    },
  };
}


/**
 * A short `sh` script that runs git commands (named by the desk, arguments as the script's parameters, never spliced
 * into it) with the environment and settings the runner gives `args`, started as one process of the desk's: a fork of
 * the desk's large process costs more than the shell's forks of git. Not through simple-git, which waits 50 ms after a
 * silent command. Resolves with the script's exit code, stdout and stderr.
 */
export async function runGitScript(git: GitRunner, repo: GitRepo, args: readonly string[], script: string, parameters: readonly string[], options: { input?: string; config?: readonly string[] } = {}): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const { env } = await git.invocation(repo, args, options.config ? { config: options.config } : {});
  return new Promise((resolve, reject) => {
    const cwd = repo.workTree ?? repo.gitDir;
    const launch = { command: '/bin/sh', args: ['-c', script, 'sh', ...parameters] };
    // A shell waiting for it when the runner has one: no fork of the desk (../host/spare-processes.ts).
    const child = git.spares?.take({ ...launch, cwd, env }) ?? spawn(launch.command, launch.args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => reject(gitFailed(args, undefined, error.message)));
    child.on('close', (code) => resolve({ exitCode: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    child.stdin.end(options.input ?? '');
  });
}
