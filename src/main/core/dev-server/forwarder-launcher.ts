// Where the in-sandbox dev-server forwarder is: the bundled file beside the bundled desk, else its source through tsx.
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bridgeLauncher } from '../sandbox/network/sandbox-network';

/** The Node arguments that run the forwarder (`entry` names it outright, as tests do). */
export function forwarderLauncher(entry = defaultForwarderEntry()): string[] {
  return bridgeLauncher(entry);
}

function defaultForwarderEntry(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'dev-server-forwarder.js'), join(here, '..', 'dev-server-forwarder.js'), join(here, 'dev-server-forwarder.ts')];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`Dev server: the sandbox's port forwarder is not built (looked for ${candidates.join(', ')}); rebuild the desk.`);
  // In the packaged app it is unpacked beside app.asar: the Node that runs it cannot read inside the archive.
  return found.replace(`app.asar${sep}`, `app.asar.unpacked${sep}`);
}
