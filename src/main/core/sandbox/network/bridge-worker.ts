// The network bridge's listeners as the preload opens them: in the agent's own thread, or in a worker thread of its
// process (see ./sandbox-net-preload.ts), whose body this is too. The agent's thread waits for the worker
// synchronously, so the preload can be a plain `--require`d script and still have the listeners open before the
// agent's code runs. Node's worker_threads module is passed in: a relay alone never loads it.
import type * as WorkerThreads from 'node:worker_threads';
import { parseBridgeFlags, type BridgeSettings } from './bridge-settings';
import { openBridgeListeners } from './bridge-listeners';

type Threads = typeof WorkerThreads;

/** Marks the worker the preload starts, so that an agent's own workers (which load the preload too) do nothing. */
export const WORKER_MARK = 'deskNetBridge';

/** The longest the agent's thread waits for its worker's listeners; past it the agent runs without them. */
export const WORKER_WAIT_MS = 10_000;

/** What the listeners came to, as it crosses from a worker (errors lose their `code` in a message). */
export interface Opened { proxyPort: number | undefined; failures: { address: string; port: number; code: string; message: string }[] }

/** What the worker is handed: the flags, where to answer, and the word it sets once it has answered. */
interface WorkerOrder { flags: string[]; answer: WorkerThreads.MessagePort; done: Int32Array }

export function readFlags(value: unknown): string[] | undefined {
  try {
    const flags: unknown = typeof value === 'string' ? JSON.parse(value) : value;
    return Array.isArray(flags) && flags.every((item) => typeof item === 'string') ? flags : undefined;
  } catch {
    return undefined;
  }
}

export async function openListeners(settings: BridgeSettings, unref: boolean): Promise<Opened> {
  const { proxyPort, failures } = await openBridgeListeners(settings, { unref });
  return { proxyPort, failures: failures.map(({ address, port, error }) => ({ address, port, code: error.code ?? '', message: error.message })) };
}

const failed = (message: string): Opened => ({ proxyPort: undefined, failures: [{ address: 'its worker', port: 0, code: '', message }] });

/**
 * Starts the worker (`entry`: the preload's own file) and blocks this thread until it has opened the listeners. The
 * worker is unref'd and keeps its listeners: it serves the proxy while the agent's thread waits on a child process.
 */
export function openInWorkerSync(threads: Threads, entry: string, flags: string[]): Opened {
  const { port1, port2 } = new threads.MessageChannel();
  const done = new Int32Array(new SharedArrayBuffer(4));
  const order: WorkerOrder = { flags, answer: port2, done };
  let worker: WorkerThreads.Worker;
  try {
    worker = new threads.Worker(entry, { workerData: { [WORKER_MARK]: order }, transferList: [port2], execArgv: [], stdout: false, stderr: false });
  } catch (error) {
    port1.close();
    return failed(error instanceof Error ? error.message : String(error));
  }
  worker.unref();
  // A worker that fails later reports on stderr through its listeners' failures; one that never starts must not
  // take the agent down with an unhandled 'error'.
  worker.on('error', () => undefined);
  const waited = Atomics.wait(done, 0, 0, WORKER_WAIT_MS);
  const answer = threads.receiveMessageOnPort(port1)?.message as Opened | undefined;
  port1.close();
  if (answer) return answer;
  return failed(waited === 'timed-out' ? `it did not open the listeners within ${WORKER_WAIT_MS / 1000} s` : 'it ended without opening the listeners');
}

/**
 * In a worker: when it is the preload's own (marked), opens the listeners (kept open: the worker is unref'd
 * instead), answers what they came to, and wakes the agent's thread whatever happened.
 */
export function serveFromWorker(threads: Threads): void {
  const order = (threads.workerData as Record<string, unknown> | null)?.[WORKER_MARK] as WorkerOrder | undefined;
  if (!order || !(order.done instanceof Int32Array)) return;
  let woken = false;
  const wake = (opened: Opened): void => {
    if (woken) return;
    woken = true;
    try {
      order.answer.postMessage(opened);
      order.answer.close();
    } finally {
      Atomics.store(order.done, 0, 1);
      Atomics.notify(order.done, 0);
    }
  };
  // A worker that ends before answering (an uncaught error) still wakes the agent's thread, which would otherwise wait
  // out WORKER_WAIT_MS.
  process.once('exit', () => wake(failed('the worker ended')));
  const flags = readFlags(order.flags);
  const parsed = flags ? parseBridgeFlags(flags) : undefined;
  if (!parsed) return wake(failed('its flags are not bridge flags'));
  openListeners(parsed.settings, false).then(wake, (error: unknown) => wake(failed(error instanceof Error ? error.message : String(error))));
}
