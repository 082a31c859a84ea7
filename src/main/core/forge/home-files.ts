// Reads the person's `gh` / `glab` login files under their home for forge tokens: a missing or unreadable file is
// simply no login.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function homeFileReader(home: string): (relativePath: string) => string | undefined {
  return (relativePath) => {
    try {
      return readFileSync(join(home, relativePath), 'utf8');
    } catch {
      return undefined;
    }
  };
}
