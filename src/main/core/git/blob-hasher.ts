// Writes files' contents as blobs with one `git hash-object -w --stdin-paths` process for all of them, started with
// the first file so that git starts while the layer is still being walked; names come back in the order of the files.
import { openGitPipe, type GitPipe } from './git-pipe';
import type { GitRepo, GitRunner } from './git-runner';

export interface BlobHasher {
  /** Queues an absolute path (bytes); returns its index in what `finish` resolves with. */
  add(path: Buffer): number;
  /** The blobs' names, in the order the files were added. */
  finish(): Promise<string[]>;
  /** Ends git after an error elsewhere. */
  kill(): void;
}

/**
 * The contents are taken as they are on disk (`--no-filters`): git is run without a work tree (it cannot be given the
 * overlay, see ignore-check.ts), so no attribute-driven conversion applies, as with the desk's disarmed filter
 * drivers; a repository that converts line endings on `git add` (text/eol attributes, core.autocrlf) gets the bytes
 * as written.
 */
export function createBlobHasher(git: GitRunner, repo: GitRepo): BlobHasher {
  let pipe: Promise<GitPipe> | undefined;
  let added = 0;
  let written: Promise<unknown> = Promise.resolve();
  return {
    add(path) {
      pipe ??= openGitPipe(git, { gitDir: repo.gitDir, ...(repo.commonDir !== undefined && { commonDir: repo.commonDir }) }, ['hash-object', '-w', '--no-filters', '--stdin-paths']);
      const opened = pipe;
      written = written.then(async () => (await opened).write(Buffer.concat([quoted(path), Buffer.from('\n')])));
      added += 1;
      return added - 1;
    },
    async finish() {
      if (!pipe) return [];
      await written;
      const batch = await pipe;
      const names = await Promise.all(Array.from({ length: added }, () => batch.readUntil(0x0a)));
      await batch.finish();
      return names.map((name) => name.toString('latin1'));
    },
    kill() {
      void pipe?.then((batch) => batch.kill(), () => undefined);
    },
  };
}

/** A path as one line of --stdin-paths: C-quoted (git unquotes a line that starts with `"`) when it needs to be. */
function quoted(path: Buffer): Buffer {
  if (!path.includes(0x0a) && path[0] !== 0x22) return path;
  const text = path.toString('latin1').replace(/[\\"\n]/g, (char) => (char === '\n' ? '\\n' : `\\${char}`));
  return Buffer.from(`"${text}"`, 'latin1');
}
