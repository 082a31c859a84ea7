// Keeps a terminal's slave side open from the desk until node-pty reports the exit, so the tail of a
// fast command's output is not lost (node-pty issues #72, #726: on Linux, once the command closes the
// slave, the master can fail with EIO while output is still queued, and that output is dropped).
import { closeSync, constants, openSync } from 'node:fs';
import type { IPty } from 'node-pty';

/**
 * Opens the terminal's slave device and returns the function that closes it again. Must be called right
 * after spawning, before the event loop runs: only the loop's reads can hit the EIO.
 * With the slave held, the master never sees the hang-up; node-pty then ends the terminal 200 ms after
 * the exit (its own fallback), having read everything. A no-op where there is no slave device (Windows).
 */
export function holdSlaveOpen(pty: IPty): () => void {
  const name = slaveName(pty);
  if (name === undefined) return () => {};
  let fd: number | undefined;
  try {
    // O_NOCTTY: the desk must never adopt the agent's terminal as its controlling terminal.
    fd = openSync(name, constants.O_RDWR | constants.O_NOCTTY);
  } catch {
    return () => {};
  }
  return () => {
    if (fd === undefined) return;
    try { closeSync(fd); } catch { /* already closed */ }
    fd = undefined;
  };
}

function slaveName(pty: IPty): string | undefined {
  if (process.platform === 'win32') return undefined;
  // node-pty's Unix terminal has `ptsName` (the slave path from ptsname(3)); its typings leave it out.
  const name = (pty as IPty & { ptsName?: unknown }).ptsName;
  return typeof name === 'string' && name.startsWith('/dev/') ? name : undefined;
}
