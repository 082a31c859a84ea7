// The network bridge's listeners as the preload opens them: in the agent's own thread, or in a worker thread of its
// process (see ./sandbox-net-preload.ts), whose body this is too.
import { parentPort, workerData } from 'node:worker_threads';
import { parseBridgeFlags, type BridgeSettings } from './bridge-settings';
import { openBridgeListeners } from './bridge-listeners';

/** Marks the worker the preload starts, so that an agent's own workers (which load the preload too) do nothing. */
export const WORKER_MARK = 'deskNetBridgeFlags';

/** What the listeners came to, as it crosses from a worker (errors lose their `code` in a message). */
export interface Opened { proxyPort: number | undefined; failures: { address: string; port: number; code: string; message: string }[] }

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

/** In the preload's worker: opens the listeners (kept open: the worker is unref'd instead) and says where the proxy is. */
export function serveFromWorker(): void {
  const flags = readFlags((workerData as Record<string, unknown> | null)?.[WORKER_MARK]);
  const parsed = flags ? parseBridgeFlags(flags) : undefined;
  if (!parsed) return;
  void openListeners(parsed.settings, false).then((opened) => parentPort?.postMessage(opened));
}
