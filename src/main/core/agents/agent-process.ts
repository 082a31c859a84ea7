// Starts an agent as the leader of its own process group, with stdio pipes for the protocol and stderr as its log.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { endProcessTree } from './process-tree';
import { endSandboxNamespace } from './namespace-end';
import { DeskError } from '../../../shared/desk-error';
import type { SpareProcesses } from '../host/spare-processes';

export interface AgentExit { code: number | null; signal: NodeJS.Signals | null }

/** A running agent wherever it runs (a process here, a container elsewhere): its protocol streams and its end. */
export interface RunningAgent {
  /** The process id on this machine; absent when the agent runs in a container. */
  readonly pid?: number;
  /** Where it runs, for the task's log (e.g. "pid 123", "container 0123abcd"). */
  readonly where: string;
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** Resolves when the agent has exited (never rejects). */
  readonly exited: Promise<AgentExit>;
  /** The last lines the agent wrote to stderr, for error messages. */
  recentLog(): string;
  /** Resolves once the agent's stderr has ended and each of its lines is in `recentLog` (absent where it is not a process of this machine). */
  readonly logEnded?: Promise<void>;
  /** Ends the agent and everything it started; resolves within about 3 s. */
  stop(): Promise<void>;
  /** How long a cancelled agent may take to end its turn before it is stopped; default: the desk's grace. */
  readonly cancelGraceMs?: number;
}

export interface AgentProcess extends RunningAgent {
  readonly pid: number;
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<AgentExit>;
  /** The last lines the agent wrote to stderr, for error messages. */
  recentLog(): string;
  /** Ends the whole process tree (SIGTERM, then SIGKILL); resolves within about 3 s. */
  stop(): Promise<void>;
}

export const agentStartFailed = (message: string) => new DeskError('unavailable', 'agent_start_failed', message);

export interface SpawnAgentOptions {
  command: string;
  /** The agent's own program, for messages, when `command` is the sandbox that starts it. */
  program?: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  onLogLine?: (line: string) => void;
  /**
   * `command` starts a sandbox whose processes share one PID namespace (the task sandbox's bubblewrap): stopping it
   * waits for that namespace to end instead of walking the process table (./namespace-end.ts).
   */
  pidNamespace?: boolean;
  /** Where a process waits to become this launch (../host/spare-processes.ts): only for a `command` known to exist. */
  spares?: Pick<SpareProcesses, 'take'>;
}

const KEPT_LOG_LINES = 20;

export async function spawnAgent(options: SpawnAgentOptions): Promise<AgentProcess> {
  // A spare is already started, in a process group of its own as below: no fork of the desk now.
  const spare = options.spares?.take({ command: options.command, args: options.args, cwd: options.cwd, env: options.env });
  const child = spare ?? spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group, so that stopping the agent also stops every process it started.
    detached: process.platform !== 'win32',
    windowsHide: true,
  });
  const log: string[] = [];
  // readline is loaded with the first agent, not at the desk's start.
  const lines = process.getBuiltinModule('node:readline').createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', (line) => {
    log.push(line);
    if (log.length > KEPT_LOG_LINES) log.shift();
    options.onLogLine?.(line);
  });
  const logEnded = new Promise<void>((resolve) => lines.once('close', resolve));
  const exited = new Promise<AgentExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  if (!spare) await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    const program = options.program ?? options.command;
    child.once('error', (error: NodeJS.ErrnoException) => reject(agentStartFailed(error.code === 'ENOENT'
      ? `Cannot start agent "${program}": ${program === options.command ? 'it' : options.command} is not installed or not on PATH (see GET /api/agents).`
      : `Cannot start agent "${program}": ${error.message}`)));
  });
  // A closed pipe must not crash the desk; the exit tells the story.
  child.stdin.on('error', () => {});
  const pid = child.pid as number;

  return {
    pid,
    where: `pid ${pid}`,
    child,
    stdin: child.stdin,
    stdout: child.stdout,
    exited,
    recentLog: () => log.join('\n'),
    logEnded,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) {
        await endProcessTree(pid, { graceMs: 0, limitMs: 500, exited });
        return;
      }
      child.stdin.end();
      if (options.pidNamespace) await endSandboxNamespace(pid, { graceMs: 1000, limitMs: 2500, exited });
      else await endProcessTree(pid, { graceMs: 1000, limitMs: 2500, exited });
    },
  };
}
