// Mount paths as the kernel sees them: bubblewrap mounts where a path really leads, so the layout names each place by
// its real path, once.
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Mount } from './bwrap-arguments';

/**
 * Mounts land where a path really leads (`/var/run` is `/run` on most systems): name each by its real path,
 * once, so the order of parents before children holds.
 */
export function realMounts(mounts: Mount[]): Mount[] {
  const seen = new Set<string>();
  const real: Mount[] = [];
  for (const mount of mounts) {
    // A link put back is the link itself, not where it leads.
    const path = mount.kind === 'symlink' ? mount.path : tryRealpath(mount.path);
    const key = `${mount.kind}:${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    real.push({ ...mount, path });
  }
  return real;
}

function tryRealpath(path: string): string {
  try {
    // realpath(3), one system call: fs.realpathSync looks at every segment of every mount itself, each run.
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/** With the network open, name resolution reads /etc/resolv.conf, which often links into the hidden /run. */
export function resolverDirs(): string[] {
  try {
    const real = realpathSync('/etc/resolv.conf');
    return real.startsWith('/run/') ? [dirname(real)] : [];
  } catch {
    return [];
  }
}

