// Where a program is on a PATH, as a shell would find it: the first directory holding an executable of that name.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export function findOnPath(program: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
