// What every terminal host answers the same way wherever its terminals run (a local pty, a cluster container): a
// terminal's output so far, and its exit, awaited; and how its output is kept (a buffer, batched events) as it comes.
import type { TaskEvent } from '../../../shared/events';
import { createOutputBatcher, type OutputBatcher } from './output-batcher';
import { createOutputBuffer, type OutputBuffer } from './output-buffer';

/** How often a terminal's output is recorded as an event, at most. */
export const DEFAULT_BATCH_MS = 50;
/** Output waiting for its batch beyond this is recorded at once. */
export const MAX_PENDING_OUTPUT = 64 * 1024;

export interface TerminalExitStatus { exitCode: number | null; signal: string | null }

export interface TerminalOutput { output: string; truncated: boolean; exitStatus: TerminalExitStatus | null }

export interface ReadableTerminal {
  readonly buffer: Pick<OutputBuffer, 'text' | 'truncated'>;
  exitStatus: TerminalExitStatus | null;
  readonly exited: Promise<TerminalExitStatus>;
}

/** `find` throws (to the agent) for a terminal it does not know; `waitForExit` turns that into a rejection. */
export function terminalReads(find: (terminalId: string) => ReadableTerminal) {
  return {
    output(terminalId: string): TerminalOutput {
      const terminal = find(terminalId);
      return { output: terminal.buffer.text(), truncated: terminal.buffer.truncated, exitStatus: terminal.exitStatus };
    },
    waitForExit(terminalId: string): Promise<TerminalExitStatus> {
      try {
        return find(terminalId).exited;
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}

/** Where a terminal's output goes as it comes: the buffer the agent reads (up to `limit`), the batches recorded as events. */
export interface TerminalSink {
  readonly buffer: OutputBuffer;
  readonly batcher: OutputBatcher;
  /** Settles with the status given to `settle`. */
  readonly exited: Promise<TerminalExitStatus>;
  settle(status: TerminalExitStatus): void;
}

export function createTerminalSink(terminalId: string, limit: number, options: { outputBatchMs?: number | undefined; record(event: TaskEvent): void }): TerminalSink {
  const batcher = createOutputBatcher({
    intervalMs: options.outputBatchMs ?? DEFAULT_BATCH_MS,
    maxPending: MAX_PENDING_OUTPUT,
    emit: (data) => options.record({ type: 'terminal-output', terminalId, data }),
  });
  let settle: (status: TerminalExitStatus) => void = () => {};
  const exited = new Promise<TerminalExitStatus>((resolve) => { settle = resolve; });
  return { buffer: createOutputBuffer(limit), batcher, exited, settle };
}
