// The repository's common git dir (objects, refs, config), as the sandbox needs it: absolute and real.
import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';

export function gitCommonDirOf(repoRoot: string): Promise<string> {
  return new Promise((done, fail) => {
    // Asked with the system and global config left out: nothing of theirs may change where the git dir is.
    execFile('git', ['rev-parse', '--git-common-dir'], { cwd: repoRoot, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } }, (error, stdout) => {
      if (error) {
        fail(error);
        return;
      }
      realpath(resolve(repoRoot, String(stdout).trim())).then(done, fail);
    });
  });
}
