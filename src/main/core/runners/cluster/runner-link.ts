// The desk's end of one `desk-runner` connection (wire: src/shared/runner-link.ts): the agent in the container as
// the task runner sees any agent, plus the file access, terminals and push the helper performs there for the desk.
import { PassThrough, Writable, type Duplex } from 'node:stream';
import { INTERNAL_ERROR, JsonRpcError, PeerClosedError } from '../../../../shared/json-rpc-peer';
import type { TaskEvent } from '../../../../shared/events';
import {
  ACP_LINE_TAG,
  CONTROL_LINE_TAG,
  FilesReadResult,
  MAX_LINK_LINE_BYTES,
  PushResult,
  RUNNER_UPGRADE_PROTOCOL,
  type RunnerNotification,
} from '../../../../shared/runner-link';
import type { AgentExit, RunningAgent } from '../../agents/agent-process';
import type { TerminalExitStatus, TerminalHost } from '../../agents/terminal-host';
import { createLineSplitter } from './link-lines';
import { createLinkControl } from './link-control';
import { createRemoteTerminalHost, type TerminalListener } from './remote-terminals';

export interface RunnerLink {
  /**
   * The agent as the task runner sees any agent: ACP on stdin/stdout; `exited` on the `exit` notification or the
   * connection's end; `stop()` closes the connection (the helper then ends the agent). `where`: "cluster task <id>".
   */
  readonly agent: RunningAgent;
  /** Same shape as createWorktreeFiles(...) (agents/worktree-files.ts), performed in the container. */
  readonly files: {
    readTextFile(p: { path: string; line?: number; limit?: number }): Promise<string>;
    writeTextFile(p: { path: string; content: string }): Promise<void>;
  };
  /**
   * A TerminalHost whose commands run in the container: output mirrored here (so `output()` stays synchronous),
   * the same task events, limits and unknown-id errors (JsonRpcError INVALID_PARAMS) as the local host.
   */
  terminals(options: { record(event: TaskEvent): void; baseEnv: Record<string, string> }): TerminalHost;
  /** Asks the helper to commit and push this turn's work; resolves with the pushed commit, rejects with git's reason. */
  push(): Promise<string>;
}

export interface LinkOptions {
  taskId: string;
  /** Each line the agent writes to stderr (and what the desk has to say about the connection). */
  onLogLine?(line: string): void;
}

const KEPT_LOG_LINES = 20;
const STOP_LIMIT_MS = 3000;
/** How the connection's end is told to the terminals still running there: the helper SIGTERMs them. */
const LOST_TERMINAL: TerminalExitStatus = { exitCode: null, signal: 'SIGTERM' };

/** Answers an upgrade request on `socket` with 101 (Upgrade: desk-runner) — the route calls this after checking the token. */
export function acceptRunnerUpgrade(socket: Duplex): void {
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${RUNNER_UPGRADE_PROTOCOL}\r\n\r\n`);
}

/** Serves an accepted connection; `head` holds whatever the helper sent after its request, as node's 'upgrade' gives it. */
export function linkOverSocket(socket: Duplex, head: Buffer, options: LinkOptions): RunnerLink {
  const log: string[] = [];
  const note = (line: string): void => {
    log.push(line);
    if (log.length > KEPT_LOG_LINES) log.shift();
    options.onLogLine?.(line);
  };
  let closed = false;
  const send = (line: string): boolean => (closed || !socket.writable ? true : socket.write(`${line}\n`));
  const control = createLinkControl({
    send: (json) => send(`${CONTROL_LINE_TAG}${json}`),
    onMalformed: (reason) => note(`[runner link] ignored ${reason} from the runner of task ${options.taskId}`),
  });

  const stdout = new PassThrough();
  let resolveExited: (exit: AgentExit) => void = () => {};
  const exited = new Promise<AgentExit>((resolve) => { resolveExited = resolve; });
  let agentEnded = false;
  const endAgent = (exit: AgentExit): void => {
    if (agentEnded) return;
    agentEnded = true;
    stdout.end();
    resolveExited(exit);
  };

  // The desk's ACP lines for the agent, re-cut into lines so each one gets its tag; backpressure follows the socket.
  let forwardedOk = true;
  const toAgent = createLineSplitter(MAX_LINK_LINE_BYTES, (line) => {
    forwardedOk = send(`${ACP_LINE_TAG}${line}`) && forwardedOk;
  }, () => note(`[runner link] dropped a message for the agent longer than ${MAX_LINK_LINE_BYTES} bytes`));
  const stdin = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      forwardedOk = true;
      toAgent(chunk);
      if (forwardedOk || closed) callback();
      else whenDrainedOrClosed(socket, () => callback());
    },
  });

  const terminalListeners = new Map<string, TerminalListener>();
  let terminalNumber = 1;

  const dispatch = (notification: RunnerNotification): void => {
    switch (notification.method) {
      case 'log':
        note(notification.params.line);
        return;
      case 'terminal/output':
        terminalListeners.get(notification.params.terminalId)?.output(notification.params.data);
        return;
      case 'terminal/exit': {
        const { terminalId, exitCode, signal } = notification.params;
        terminalListeners.get(terminalId)?.exit({ exitCode, signal });
        return;
      }
      case 'exit':
        // The signal's name as the helper's Node reported it; only ever shown, so it is not checked against a list.
        endAgent({ code: notification.params.code, signal: notification.params.signal as NodeJS.Signals | null });
        return;
    }
  };

  const fromHelper = createLineSplitter(MAX_LINK_LINE_BYTES, (line) => {
    const tag = line.slice(0, 1);
    if (tag === ACP_LINE_TAG) {
      if (!agentEnded) stdout.write(`${line.slice(1)}\n`);
    } else if (tag === CONTROL_LINE_TAG) {
      const notification = control.receive(line.slice(1));
      if (notification) dispatch(notification);
    } else if (line.trim() !== '') note(`[runner link] ignored a line without a known tag from the runner of task ${options.taskId}`);
  }, () => note(`[runner link] dropped a line longer than ${MAX_LINK_LINE_BYTES} bytes from the runner of task ${options.taskId}`));

  const onClosed = (): void => {
    if (closed) return;
    closed = true;
    const reason = `The connection to the runner of task ${options.taskId} closed`;
    control.close(new PeerClosedError(reason));
    for (const listener of [...terminalListeners.values()]) listener.exit(LOST_TERMINAL);
    if (!agentEnded) note(`${reason} before the agent's exit was reported`);
    endAgent({ code: null, signal: null });
    stdin.destroy();
  };
  socket.on('data', (chunk: Buffer) => fromHelper(chunk));
  // The helper ends its side after the agent's exit: end ours, which closes the connection.
  socket.on('end', () => socket.end());
  socket.on('close', onClosed);
  socket.on('error', (error) => {
    note(`[runner link] ${error.message}`);
    onClosed();
  });
  if ('setNoDelay' in socket && typeof socket.setNoDelay === 'function') socket.setNoDelay(true);
  if (head.length > 0) fromHelper(head);

  const agent: RunningAgent = {
    where: `cluster task ${options.taskId}`,
    stdin,
    stdout,
    exited,
    recentLog: () => log.join('\n'),
    async stop() {
      if (closed) return;
      const gone = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.end();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const limit = new Promise<void>((resolve) => { timer = setTimeout(resolve, STOP_LIMIT_MS); });
      await Promise.race([gone, limit]);
      clearTimeout(timer);
      socket.destroy();
      onClosed();
    },
  };

  return {
    agent,
    files: {
      async readTextFile({ path, line, limit }) {
        const answer = FilesReadResult.safeParse(await control.request('files/read', {
          path,
          ...(line !== undefined && { line }),
          ...(limit !== undefined && { limit }),
        }));
        if (!answer.success) throw new JsonRpcError(INTERNAL_ERROR, 'The runner answered files/read without the content.');
        return answer.data.content;
      },
      async writeTextFile({ path, content }) {
        await control.request('files/write', { path, content });
      },
    },
    terminals: ({ record, baseEnv }) => createRemoteTerminalHost({
      control,
      nextTerminalId: () => `term-${terminalNumber++}`,
      watch(terminalId, listener) {
        // Once closed, the create request fails by itself; nothing will be heard of this terminal.
        if (closed) return () => {};
        terminalListeners.set(terminalId, listener);
        return () => { terminalListeners.delete(terminalId); };
      },
      record,
      baseEnv,
      onError: (message) => note(`[runner link] ${message}`),
    }),
    async push() {
      const answer = PushResult.safeParse(await control.request('push', {}));
      if (!answer.success) throw new JsonRpcError(INTERNAL_ERROR, 'The runner answered push without a commit.');
      return answer.data.commit;
    },
  };
}

function whenDrainedOrClosed(socket: Duplex, then: () => void): void {
  const done = (): void => {
    socket.off('drain', done);
    socket.off('close', done);
    then();
  };
  socket.on('drain', done);
  socket.on('close', done);
}
