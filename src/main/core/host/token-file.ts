// The bearer token clients must send: generated once and kept in the data dir, readable by the user only.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TOKEN_FILE = 'token';

/** Reads the token kept in `dataDir`, creating it (mode 0600) on first use. */
export function loadOrCreateToken(dataDir: string): { token: string; path: string; created: boolean } {
  const path = join(dataDir, TOKEN_FILE);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    const token = readFileSync(path, 'utf8').trim();
    if (token.length >= 16) {
      // Someone may have loosened the mode by hand; the token is as good as a password.
      if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
      return { token, path, created: false };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = randomBytes(32).toString('base64url');
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return { token, path, created: true };
}
