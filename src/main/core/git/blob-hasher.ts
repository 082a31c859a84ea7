// Writes the files a layer changed as blobs: a file of up to 1 MiB is read and written as a loose object by the desk
// itself (no process at all for the usual change of a few source files); larger ones go to one
// `git hash-object -w --stdin-paths` process for all of them. Names come back in the order the files were added.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { openGitPipe, type GitPipe } from './git-pipe';
import type { GitRepo, GitRunner } from './git-runner';
import { writeLooseObject, type ObjectFormat } from './tree-object';

/** Larger files are hashed by git, which streams them. */
const READ_IN_DESK_MAX = 1024 * 1024;

export interface BlobHasher {
  /** Queues an absolute path (bytes); returns its index in what `finish` resolves with. */
  add(path: Buffer): number;
  /** The blobs' names, in the order the files were added. */
  finish(): Promise<string[]>;
  /** Ends git after an error elsewhere. */
  kill(): void;
}

/**
 * The contents are taken as they are on disk (git's `--no-filters`): git cannot be given the overlay as its work tree
 * (see ignore-check.ts), so no attribute-driven conversion applies, as with the desk's disarmed filter drivers; a
 * repository that converts line endings on `git add` (text/eol attributes, core.autocrlf) gets the bytes as written.
 */
export function createBlobHasher(git: GitRunner, repo: GitRepo, objectsDir: string, format: ObjectFormat): BlobHasher {
  let pipe: Promise<GitPipe> | undefined;
  let toGit = 0;
  const decided: Promise<{ sha: string } | { git: number }>[] = [];

  const viaGit = async (path: Buffer): Promise<{ git: number }> => {
    pipe ??= openGitPipe(git, { gitDir: repo.gitDir, ...(repo.commonDir !== undefined && { commonDir: repo.commonDir }) }, ['hash-object', '-w', '--no-filters', '--stdin-paths']);
    const index = toGit;
    toGit += 1;
    (await pipe).write(Buffer.concat([quoted(path), Buffer.from('\n')]));
    return { git: index };
  };

  const hashOne = async (path: Buffer): Promise<{ sha: string } | { git: number }> => {
    // Never through a link put in the file's place since it was listed, never waiting on a FIFO.
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new Error(`${path.toString()} is no longer a plain file; the task changed it while it was committed`);
      if (info.size <= READ_IN_DESK_MAX) return { sha: await writeLooseObject(objectsDir, 'blob', await handle.readFile(), format) };
    } finally {
      await handle.close();
    }
    return viaGit(path);
  };

  return {
    add(path) {
      decided.push(hashOne(path));
      return decided.length - 1;
    },
    async finish() {
      const all = await Promise.all(decided);
      if (!pipe) return all.map((one) => ('sha' in one ? one.sha : ''));
      const batch = await pipe;
      const names = await Promise.all(Array.from({ length: toGit }, () => batch.readUntil(0x0a)));
      await batch.finish();
      return all.map((one) => ('sha' in one ? one.sha : (names[one.git] as Buffer).toString('latin1')));
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
