// The terminals of a task whose agent runs in a cluster container: each command runs there (the helper starts it),
// its output is mirrored here so the agent's `terminal/output` is answered at once, and it is recorded as task
// events exactly as the local terminal host records them.
import type { TaskEvent } from '../../../../shared/events';
import { JsonRpcError } from '../../../../shared/json-rpc-peer';
import { TerminalCreateResult } from '../../../../shared/runner-link';
import { RESOURCE_NOT_FOUND } from '../../agents/acp-errors';
import type { OutputBatcher } from '../../agents/output-batcher';
import type { OutputBuffer } from '../../agents/output-buffer';
import { checkedLimit, DISPOSE_LIMIT_MS, MAX_OUTPUT_LIMIT, type TerminalExitStatus, type TerminalHost } from '../../agents/terminal-host';
import type { LinkControl } from './link-control';
import { createTerminalSink, terminalReads } from '../../agents/terminal-reads';

/** What the link tells a terminal: its output as it comes, and its end. */
export interface TerminalListener {
  output(data: string): void;
  exit(status: TerminalExitStatus): void;
}

export interface RemoteTerminalOptions {
  control: Pick<LinkControl, 'request'>;
  /** Ids are unique per connection, whichever host made them, since the helper knows terminals by id. */
  nextTerminalId(): string;
  /** Routes the helper's notifications for `terminalId` to `listener` until the returned function is called. */
  watch(terminalId: string, listener: TerminalListener): () => void;
  /** Stores and streams terminal events for the UI. */
  record(event: TaskEvent): void;
  /** The agent's environment for commands; `env` entries of a request are added on top. */
  baseEnv: Record<string, string>;
  outputBatchMs?: number;
  /** A request the agent cannot wait on (kill, write, release) failed: said here, never thrown. */
  onError?(message: string): void;
}

interface Terminal {
  readonly buffer: OutputBuffer;
  readonly batcher: OutputBatcher;
  exitStatus: TerminalExitStatus | null;
  readonly exited: Promise<TerminalExitStatus>;
}


export function createRemoteTerminalHost(options: RemoteTerminalOptions): TerminalHost {
  const terminals = new Map<string, Terminal>();
  const dying = new Set<Terminal>();

  const find = (terminalId: string): Terminal => {
    const terminal = terminals.get(terminalId);
    if (!terminal) throw new JsonRpcError(RESOURCE_NOT_FOUND, `Unknown terminal ${terminalId}: it was never created here or has been released.`, { terminalId });
    return terminal;
  };
  const tell = (what: string, request: Promise<unknown>): void => {
    request.catch((error: unknown) => options.onError?.(`${what}: ${error instanceof Error ? error.message : String(error)}`));
  };

  return {
    async create(params) {
      const limit = checkedLimit(params.outputByteLimit);
      const args = params.args ?? [];
      const env = { ...options.baseEnv };
      for (const { name, value } of params.env ?? []) env[name] = value;
      const terminalId = options.nextTerminalId();

      const { buffer, batcher, exited, settle: resolveExit } = createTerminalSink(terminalId, limit, options);
      const terminal: Terminal = { buffer, batcher, exitStatus: null, exited };
      // Output (even the exit) may come before the answer to `terminal/create`: it waits, so events keep their order.
      let started = false;
      const early: (() => void)[] = [];
      const whenStarted = (work: () => void): void => {
        if (started) work();
        else early.push(work);
      };

      const unwatch = options.watch(terminalId, {
        output(data) {
          if (terminal.exitStatus !== null) return;
          buffer.append(data);
          whenStarted(() => batcher.push(data));
        },
        exit(status) {
          if (terminal.exitStatus !== null) return;
          terminal.exitStatus = status;
          unwatch();
          whenStarted(() => {
            batcher.flush();
            options.record({ type: 'terminal-exited', terminalId, ...status });
          });
          dying.delete(terminal);
          resolveExit(status);
        },
      });

      let answer: unknown;
      try {
        answer = await options.control.request('terminal/create', {
          terminalId,
          command: params.command,
          args,
          env: Object.entries(env).map(([name, value]) => ({ name, value })),
          cwd: params.cwd ?? null,
          ...(limit < MAX_OUTPUT_LIMIT && { outputByteLimit: limit }),
        });
      } catch (error) {
        unwatch();
        throw error;
      }
      const cwd = TerminalCreateResult.safeParse(answer).data?.cwd ?? params.cwd ?? '.';
      options.record({ type: 'terminal-started', terminalId, command: params.command, args, cwd });
      started = true;
      for (const work of early.splice(0)) work();
      terminals.set(terminalId, terminal);
      return { terminalId };
    },

    ...terminalReads(find),

    kill(terminalId) {
      find(terminalId);
      // Sent even after the exit: what the command left running in the background still goes.
      tell(`Cannot kill terminal ${terminalId}`, options.control.request('terminal/kill', { terminalId }));
    },

    write(terminalId, data) {
      const terminal = find(terminalId);
      if (terminal.exitStatus === null) tell(`Cannot type into terminal ${terminalId}`, options.control.request('terminal/write', { terminalId, data }));
    },

    release(terminalId) {
      const terminal = find(terminalId);
      terminals.delete(terminalId);
      if (terminal.exitStatus === null) dying.add(terminal);
      tell(`Cannot release terminal ${terminalId}`, options.control.request('terminal/release', { terminalId }));
    },

    async disposeAll() {
      for (const terminalId of terminals.keys()) {
        tell(`Cannot release terminal ${terminalId}`, options.control.request('terminal/release', { terminalId }));
      }
      const all = [...terminals.values(), ...dying];
      terminals.clear();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const limit = new Promise<void>((resolve) => { timer = setTimeout(resolve, DISPOSE_LIMIT_MS); });
      await Promise.race([Promise.all(all.map((t) => t.exited)), limit]);
      clearTimeout(timer);
      dying.clear();
    },
  };
}
