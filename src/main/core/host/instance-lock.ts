// One desk per data dir: two would run the same tasks twice. A lock file holds the owner's pid.
import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { processExists } from '../agents/process-tree';
import { DeskError } from '../../../shared/desk-error';

const dataDirInUse = (message: string) => new DeskError('unavailable', 'data_dir_in_use', message);

/** Takes the lock or throws `data_dir_in_use`; a lock left by a dead process (a crash) is taken over. */
export function lockDataDir(dataDir: string): { release(): void } {
  const path = join(dataDir, 'desk.lock');
  for (let tries = 0; tries < 2; tries += 1) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: () => rmSync(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && processExists(owner)) {
        throw dataDirInUse(`Another Assignment Desk (pid ${owner}) is using ${dataDir}; stop it or choose another --data-dir.`);
      }
      rmSync(path, { force: true });
    }
  }
  throw dataDirInUse(`Cannot lock ${dataDir}.`);
}
