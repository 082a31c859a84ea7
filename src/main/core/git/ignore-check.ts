// Whether `git add --all` would leave a new path out by the ignore rules. git cannot be pointed at the overlay itself
// (it takes the real path of its work tree, and /proc/<pid>/root/… resolves to the path outside the namespace), so it
// is given a stand-in work tree: a scratch dir holding, along the paths asked about, the `.gitignore` files the overlay
// has and the directories (for `dir/` patterns). That is all git reads there. The rules are asked without the index
// (which git reads whole, 19 MB at 200,000 files): only a file the rules ignore is asked again of a second
// `git check-ignore` that reads the index, so a file the index tracks (an agent's `git add -f`) is never left out.
import { copyFile, lstat, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { openGitPipe, type GitPipe } from './git-pipe';
import type { GitRepo, GitRunner } from './git-runner';
import { onDisk } from './layer-paths';

export interface IgnoreCheck {
  /** `path` is relative to the top, `/`-separated, latin1; `isDir` when it is a directory in the layer. */
  ignored(path: string, isDir: boolean): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Started on the first question. The index may be behind the branch by the desk's own commits (./layer-index.ts), never
 * by a file of an earlier turn the rules ignore: the desk committed such a file only because the index had it.
 */
export function createIgnoreCheck(git: GitRunner, repo: GitRepo, mergedDir: string, scratchParent: string): IgnoreCheck {
  // The stand-in work tree, made with the first question and removed by close().
  let made: Promise<string> | undefined;
  let scratch = '';
  const prepared = new Map<string, Promise<void>>();

  // A dir of the stand-in, with the overlay's `.gitignore` of that dir when it has a plain one (git opens it without
  // following a link).
  const prepareDir = (dir: string): Promise<void> => {
    let done = prepared.get(dir);
    if (!done) {
      done = (async () => {
        made ??= mkdtemp(join(scratchParent, 'desk-layer-ignore-'));
        scratch = await made;
        const parent = dir.lastIndexOf('/');
        if (dir !== '') await prepareDir(parent === -1 ? '' : dir.slice(0, parent));
        const inScratch = onDisk(scratch, dir);
        if (dir !== '') await mkdir(inScratch).catch((error: NodeJS.ErrnoException) => { if (error.code !== 'EEXIST') throw error; });
        const rules = onDisk(mergedDir, dir === '' ? '.gitignore' : `${dir}/.gitignore`);
        const info = await lstat(rules).catch(() => undefined);
        if (info?.isFile()) await copyFile(rules, onDisk(scratch, dir === '' ? '.gitignore' : `${dir}/.gitignore`));
      })();
      prepared.set(dir, done);
    }
    return done;
  };

  const byRules = askingGit(() => openGitPipe(git, { ...repo, workTree: scratch }, ['check-ignore', '--stdin', '-z', '--verbose', '--non-matching', '--no-index'], { cwd: scratch }));
  const byIndex = askingGit(() => openGitPipe(git, { ...repo, workTree: scratch }, ['check-ignore', '--stdin', '-z', '--verbose', '--non-matching'], { cwd: scratch }));

  return {
    async ignored(path, isDir) {
      const slash = path.lastIndexOf('/');
      await prepareDir(slash === -1 ? '' : path.slice(0, slash));
      if (isDir) await prepareDir(path);
      if (!await byRules.ask(path)) return false;
      // A dir is never an entry of the index: the rules decide.
      return isDir || byIndex.ask(path);
    },
    async close() {
      try {
        await Promise.all([byRules.end(), byIndex.end()]);
      } finally {
        const dir = await made?.catch(() => undefined);
        if (dir !== undefined) await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** One `git check-ignore --stdin` started on the first question, its answers read in the order asked. */
function askingGit(open: () => Promise<GitPipe>): { ask(path: string): Promise<boolean>; end(): Promise<void> } {
  let pipe: Promise<GitPipe> | undefined;
  let answered: Promise<unknown> = Promise.resolve();
  const answerOf = async (batch: GitPipe): Promise<boolean> => {
    // -v -n: `<source>\0<line>\0<pattern>\0<path>\0` for every path; an empty source when nothing matched, a pattern
    // starting with `!` when the last match re-includes it.
    const source = await batch.readUntil(0);
    await batch.readUntil(0);
    const pattern = await batch.readUntil(0);
    await batch.readUntil(0);
    return source.length > 0 && pattern[0] !== 0x21;
  };
  return {
    async ask(path) {
      pipe ??= open();
      const batch = await pipe;
      batch.write(Buffer.concat([Buffer.from(path, 'latin1'), Buffer.from([0])]));
      const answer = answered.then(() => answerOf(batch), () => answerOf(batch));
      answered = answer;
      return answer;
    },
    async end() {
      // Every answer has been read: git's exit (1 when nothing asked about is ignored) is not waited for.
      const batch = await pipe?.catch(() => undefined);
      batch?.end();
    },
  };
}
