// The terminals an ACP agent asks for (client side of `terminal/*`): each command runs in a pseudo-terminal
// inside the task's worktree, its output is kept for the agent and streamed to the UI as task events.
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import type * as NodePty from 'node-pty';
import type { IPty } from 'node-pty';
import type { TaskEvent } from '../../../shared/events';
import { INVALID_PARAMS, JsonRpcError } from '../../../shared/json-rpc-peer';
import { RESOURCE_NOT_FOUND } from './acp-errors';
import type { OutputBatcher } from './output-batcher';
import type { OutputBuffer } from './output-buffer';
import { endProcessTree } from './process-tree';
import { terminalLaunch } from './terminal-command';
import { readProcessTable } from './process-table';
import { holdSlaveOpen } from './pty-output-guard';
import { resolveTerminalCwd } from './terminal-cwd';
import { createTerminalSink, terminalReads, type TerminalExitStatus, type TerminalOutput } from './terminal-reads';

// Loaded with the first terminal, not at start (a native module the desk's first answers never need).
const loadNodePty = (): typeof NodePty => createRequire(import.meta.url)('node-pty') as typeof NodePty;

export type { TerminalExitStatus, TerminalOutput } from './terminal-reads';

export interface CreateTerminalParams {
  command: string;
  args?: string[];
  env?: { name: string; value: string }[];
  cwd?: string | null;
  outputByteLimit?: number | null;
}

/** The terminals of one task. Unknown (or released) ids fail with JSON-RPC error -32602. */
export interface TerminalHost {
  /** Starts `command` with `args`, or a shell line sent without `args` through a shell; a cwd outside the worktree fails with -32602. */
  create(params: CreateTerminalParams): Promise<{ terminalId: string }>;
  output(terminalId: string): TerminalOutput;
  /** Resolves with the exit status, at once if the command has already exited. */
  waitForExit(terminalId: string): Promise<TerminalExitStatus>;
  /** Ends the command's whole process tree; the terminal stays, so its output can still be read. */
  kill(terminalId: string): void;
  /** Kills the command if it still runs and forgets the terminal. */
  release(terminalId: string): void;
  /** Types into the terminal, as a person at its keyboard would (a login that asks for a code). */
  write(terminalId: string, data: string): void;
  /** Every terminal dies with its task: kills all and waits (about 3 s at most) for them to end. */
  disposeAll(): Promise<void>;
}

export interface TerminalHostOptions {
  /** Terminals run here; a cwd outside it (after resolving symlinks) is refused. */
  worktree: string;
  /** The agent's allowlisted environment; `env` entries of a request are added on top. */
  baseEnv: Record<string, string>;
  /** Stores and streams terminal events for the UI. */
  record(event: TaskEvent): void;
  outputBatchMs?: number;
  /** Starts each command confined to the task (the sandbox), in `cwd`; by default as it is. */
  wrap?(command: string, args: readonly string[], cwd: string): { command: string; args: string[] };
  /**
   * Where the desk reaches a path of the worktree when it is a layer (../sandbox/task-layers.ts): its folders exist only
   * where the task's processes run, so `wrap` alone goes there (the terminal itself starts at the worktree's path).
   */
  reach?(path: string): string;
}

interface Terminal {
  readonly pty: IPty;
  readonly buffer: OutputBuffer;
  readonly batcher: OutputBatcher;
  exitStatus: TerminalExitStatus | null;
  readonly exited: Promise<TerminalExitStatus>;
  /** Set while (or after) the tree is being ended, so a second kill does not start a second round. */
  stopping?: Promise<unknown>;
}

// Whatever the agent asks (no limit, or a huge one), a runaway `yes` must not eat the desk's memory.
export const MAX_OUTPUT_LIMIT = 32 * 1024 * 1024;
export const DISPOSE_LIMIT_MS = 3000;

export function createTerminalHost(options: TerminalHostOptions): TerminalHost {
  const terminals = new Map<string, Terminal>();
  // Released terminals whose command has not ended yet: disposeAll still waits for them.
  const dying = new Set<Terminal>();
  let nextNumber = 1;

  const find = (terminalId: string): Terminal => {
    const terminal = terminals.get(terminalId);
    if (!terminal) throw new JsonRpcError(RESOURCE_NOT_FOUND, `Unknown terminal ${terminalId}: it was never created here or has been released.`, { terminalId });
    return terminal;
  };

  const stop = (terminal: Terminal): void => {
    if (terminal.stopping || !treeMayRemain(terminal)) return;
    terminal.stopping = endProcessTree(terminal.pty.pid).catch(() => false);
  };

  return {
    async create(params) {
      const limit = checkedLimit(params.outputByteLimit);
      const cwd = await resolveTerminalCwd(options.worktree, params.cwd, options.reach);
      const args = params.args ?? [];
      const env = { ...options.baseEnv };
      for (const { name, value } of params.env ?? []) env[name] = value;

      const terminalId = `term-${nextNumber++}`;
      const program = terminalLaunch(params.command, args);
      const launch = options.wrap?.(program.command, program.args, cwd) ?? program;
      const pty = loadNodePty().spawn(launch.command, launch.args, { name: 'xterm-256color', cols: 120, rows: 30, cwd: options.reach ? options.worktree : cwd, env });
      const releaseSlave = holdSlaveOpen(pty);
      options.record({ type: 'terminal-started', terminalId, command: params.command, args, cwd });

      const { buffer, batcher, exited, settle: resolveExit } = createTerminalSink(terminalId, limit, options);
      const terminal: Terminal = { pty, buffer, batcher, exitStatus: null, exited };

      pty.onData((data) => {
        buffer.append(data);
        batcher.push(data);
      });
      pty.onExit(({ exitCode, signal }) => {
        releaseSlave();
        const status = exitStatusOf(exitCode, signal);
        terminal.exitStatus = status;
        batcher.flush();
        options.record({ type: 'terminal-exited', terminalId, ...status });
        dying.delete(terminal);
        resolveExit(status);
      });
      terminals.set(terminalId, terminal);
      return { terminalId };
    },

    ...terminalReads(find),

    kill(terminalId) {
      stop(find(terminalId));
    },

    write(terminalId, data) {
      const terminal = find(terminalId);
      if (terminal.exitStatus === null) terminal.pty.write(data);
    },

    release(terminalId) {
      const terminal = find(terminalId);
      stop(terminal);
      terminals.delete(terminalId);
      if (terminal.exitStatus === null) dying.add(terminal);
    },

    async disposeAll() {
      const all = [...terminals.values(), ...dying];
      for (const terminal of all) stop(terminal);
      terminals.clear();
      const ended = Promise.all(all.map((t) => Promise.all([t.exited, t.stopping])));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const limit = new Promise<void>((resolve) => { timer = setTimeout(resolve, DISPOSE_LIMIT_MS); });
      await Promise.race([ended, limit]);
      clearTimeout(timer);
      dying.clear();
    },
  };
}

/**
 * True while the command runs, or after it exited while processes it started in the background still hold
 * its process group. (A pid is not reused while a group of that id exists, so signalling the group then is safe.)
 */
function treeMayRemain(terminal: Terminal): boolean {
  if (terminal.exitStatus === null) return true;
  const group = terminal.pty.pid;
  return readProcessTable().some((p) => p.pgid === group && !p.zombie);
}

/** The output a terminal keeps: what the agent asked, at most the ceiling; a bad value is the agent's error. */
export function checkedLimit(limit: number | null | undefined): number {
  if (limit === null || limit === undefined) return MAX_OUTPUT_LIMIT;
  if (!Number.isInteger(limit) || limit < 0) {
    throw new JsonRpcError(INVALID_PARAMS, `outputByteLimit must be a non-negative integer, got ${limit}`);
  }
  return Math.min(limit, MAX_OUTPUT_LIMIT);
}

/** node-pty reports a signal by number (0 for none); ACP wants a null exit code and the signal's name. */
function exitStatusOf(exitCode: number, signal: number | undefined): TerminalExitStatus {
  if (!signal) return { exitCode, signal: null };
  const name = Object.entries(constants.signals).find(([, number]) => number === signal)?.[0];
  return { exitCode: null, signal: name ?? String(signal) };
}
