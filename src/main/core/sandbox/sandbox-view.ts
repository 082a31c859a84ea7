// The sandbox's mounts told as Settings shows them: each place readable, writable or hidden, and why. Pure.
import type { SandboxViewEntry, ViewAccess } from '../../../shared/sandbox-view';
import { orderedMounts, type Mount } from './bwrap-arguments';

const ACCESS: Record<Mount['kind'], ViewAccess> = {
  'hide-dir': 'hidden', 'hide-file': 'hidden', 'scratch-dir': 'writable', writable: 'writable', 'read-only': 'readable', symlink: 'readable',
};

/**
 * The entries of a view in the order the sandbox lays them (parents first, so a later entry inside an earlier one
 * wins), after the system that everything else is: readable. `whyOf` names the layout's own mounts, which carry no reason.
 */
export function describeView(mounts: readonly Mount[], whyOf: (mount: Mount) => string): SandboxViewEntry[] {
  const entries: SandboxViewEntry[] = [{ path: '/', access: 'readable', why: 'the system (/usr, /etc, /opt, …): everything not listed below, read-only' }];
  const seen = new Set<string>();
  for (const mount of orderedMounts(mounts)) {
    const entry = { path: mount.path, access: ACCESS[mount.kind], why: mount.why ?? whyOf(mount) };
    const key = `${entry.access}:${entry.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push(entry);
  }
  return entries;
}
