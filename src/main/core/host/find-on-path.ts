// Where a program is on a PATH, as a shell would find it: the first directory holding an executable of that name.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export function findOnPath(program: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, program);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * findOnPath with its answers remembered per program and PATH, each checked again with one access(2) before it is
 * given: a lookup that misses throws once per directory on the way, which a task that starts git every run need not
 * pay again. A program moved or removed since is looked up afresh.
 */
export function rememberedOnPath(): (program: string, path: string) => string | undefined {
  const found = new Map<string, string>();
  return (program, path) => {
    const key = `${program}\0${path}`;
    const known = found.get(key);
    if (known !== undefined && executable(known)) return known;
    const now = findOnPath(program, path);
    if (now === undefined) found.delete(key);
    else found.set(key, now);
    return now;
  };
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
