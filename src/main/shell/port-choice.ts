// The port the desk listens on: the one it used last time (1337 at first), so clients keep their settings;
// when another program holds it, a free one, which is then remembered.
import { createServer } from 'node:net';
import { DEFAULT_PORT } from './app-origin';
import type { DesktopSettings } from './desktop-settings';

export function preferredPort(settings: DesktopSettings): number {
  return settings.port ?? DEFAULT_PORT;
}

/** `preferred` when it is free on `host`, else 0 (the OS picks a free port when the core listens). */
export async function choosePort(preferred: number, host: string, isFree: (port: number, host: string) => Promise<boolean> = isPortFree): Promise<number> {
  return (await isFree(preferred, host)) ? preferred : 0;
}

/** Tries to listen there and lets go at once; any refusal (in use, not allowed) counts as not free. */
export function isPortFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
