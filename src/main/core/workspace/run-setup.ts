// Runs a repository's setup, check or cleanup command in a task's worktree, confined like the agent, with its output
// streamed into the task as a terminal named after the step, and its tail kept for the error when it fails.
import { spawn } from 'node:child_process';
import type { TaskEvent } from '../../../shared/events';
import { createOutputBatcher } from '../agents/output-batcher';
import { endProcessTree } from '../agents/process-tree';
import type { TaskIsolation } from '../sandbox/task-sandbox';
import { createTextTail } from '../tasks/text-tail';

/** `started`: false when the command could not be started at all. */
export interface StepOutcome { exitCode: number | null; signal: string | null; tail: string; started: boolean }

export interface RunStepOptions {
  /** The terminal's id in the task's stream. */
  step: 'setup' | 'check' | 'cleanup';
  command: string;
  worktree: string;
  env: Record<string, string>;
  isolation: Pick<TaskIsolation, 'wrap'>;
  record(event: TaskEvent): void;
  signal?: AbortSignal;
}

const TAIL_CHARS = 4000;
const BATCH_MS = 50;

export function runWorktreeStep(options: RunStepOptions): Promise<StepOutcome> {
  const terminalId = options.step;
  const launch = options.isolation.wrap('sh', ['-c', options.command], { cwd: options.worktree });
  options.record({ type: 'terminal-started', terminalId, command: 'sh', args: ['-c', options.command], cwd: options.worktree });
  const tail = createTextTail(TAIL_CHARS);
  const batcher = createOutputBatcher({
    intervalMs: BATCH_MS,
    maxPending: 64 * 1024,
    emit: (data) => options.record({ type: 'terminal-output', terminalId, data }),
  });
  return new Promise((resolve) => {
    const child = spawn(launch.command, launch.args, {
      cwd: options.worktree, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32',
    });
    const take = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      tail.append(text);
      batcher.push(text);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const stop = () => { if (child.pid !== undefined) void endProcessTree(child.pid); };
    options.signal?.addEventListener('abort', stop, { once: true });
    let finished = false;
    let started = true;
    const finish = (exitCode: number | null, signal: string | null) => {
      if (finished) return;
      finished = true;
      options.signal?.removeEventListener('abort', stop);
      batcher.flush();
      options.record({ type: 'terminal-exited', terminalId, exitCode, signal });
      resolve({ exitCode, signal, tail: tail.text(), started });
    };
    child.once('error', (error) => {
      tail.append(`\n${error.message}`);
      started = false;
      finish(127, null);
    });
    child.once('close', (code, signal) => finish(code, signal));
  });
}
