// The desk's own id: a short random name made once per data dir and kept there, so the branches of
// two desks working on one repository never share a name.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const DESK_ID = /^[a-z2-7]{8}$/;

/** Eight lowercase base32 characters (40 random bits): safe as one component of a git ref. */
export function newDeskId(): string {
  return [...randomBytes(8)].map((byte) => ALPHABET[byte % 32]).join('');
}

/**
 * The id kept in `<dataDir>/desk-id`, made on first use. A file that holds anything else is refused. Read and written
 * synchronously: three small file operations take microseconds, where three trips through the thread pool held
 * every start about 1.5 ms.
 */
export async function loadDeskId(dataDir: string): Promise<string> {
  const file = join(dataDir, 'desk-id');
  mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx' fails when the file exists, so two starts racing on a fresh data dir agree on one id.
    writeFileSync(file, `${newDeskId()}\n`, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const id = readFileSync(file, 'utf8').trim();
  if (!DESK_ID.test(id)) throw new Error(`${file} does not hold a desk id (8 characters a-z, 2-7); restore it or delete it to start a new one`);
  return id;
}
