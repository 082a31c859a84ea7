// What every terminal host answers the same way wherever its terminals run (a local pty, a cluster container): a
// terminal's output so far, and its exit, awaited.
import type { OutputBuffer } from './output-buffer';

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
