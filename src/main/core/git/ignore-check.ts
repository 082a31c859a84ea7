// Whether `git add --all` would leave a new path out by the ignore rules. git cannot be pointed at the overlay itself
// (it takes the real path of its work tree, and /proc/<pid>/root/… resolves to the path outside the namespace), so it
// is given a stand-in work tree: a scratch dir holding, along the paths asked about, the `.gitignore` files the overlay
// has and the directories (for `dir/` patterns). That is all git reads there. The rules are asked without the index
// (which git reads whole, 19 MB at 200,000 files): only a file the rules ignore is asked again of a second
// `git check-ignore` that reads the index, so a file the index tracks (an agent's `git add -f`) is never left out.
import { copyFile, lstat, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { checkIgnoreArgs, checkIgnorePipe } from './check-ignore-pipe';
import { openGitPipe } from './git-pipe';
import type { GitRepo, GitRunner } from './git-runner';
import { onDisk } from './layer-paths';
import type { SnapshotIgnoreRules } from './snapshot-ignore-rules';

export interface IgnoreCheck {
  /** `path` is relative to the top, `/`-separated, latin1; `isDir` when it is a directory in the layer. */
  ignored(path: string, isDir: boolean): Promise<boolean>;
  close(): Promise<void>;
}

/** The snapshot below the layer and its rules' keeper, for questions the layer's changes cannot affect. */
export interface SnapshotRules {
  lower: string;
  commit: string;
  upperDir: string;
  rules: SnapshotIgnoreRules;
}

/**
 * Started on the first question. The index may be behind the branch by the desk's own commits (./layer-index.ts), never
 * by a file of an earlier turn the rules ignore: the desk committed such a file only because the index had it. With
 * `snapshot`, a path none of whose dirs has a `.gitignore` the task changed is asked of the snapshot's kept git.
 */
export function createIgnoreCheck(git: GitRunner, repo: GitRepo, mergedDir: string, scratchParent: string, snapshot?: SnapshotRules): IgnoreCheck {
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

  const standInFor = async (path: string, isDir: boolean): Promise<void> => {
    const slash = path.lastIndexOf('/');
    await prepareDir(slash === -1 ? '' : path.slice(0, slash));
    if (isDir) await prepareDir(path);
  };
  const inStandIn = async (path: string, isDir: boolean): Promise<boolean> => {
    await standInFor(path, isDir);
    return byRules.ask(path);
  };
  // The snapshot's kept git, or the stand-in should that git have ended.
  const inSnapshot = (rules: SnapshotRules, path: string, isDir: boolean): Promise<boolean> =>
    rules.rules.ignored(rules, isDir ? `${path}/` : path).catch(() => inStandIn(path, isDir));
  const byRules = checkIgnorePipe(() => openGitPipe(git, { ...repo, workTree: scratch }, checkIgnoreArgs(false), { cwd: scratch }));
  const byIndex = checkIgnorePipe(() => openGitPipe(git, { ...repo, workTree: scratch }, checkIgnoreArgs(true), { cwd: scratch }));
  const rulesAsInSnapshot = snapshot && sameRulesAsSnapshot(snapshot, mergedDir);

  return {
    async ignored(path, isDir) {
      const bySnapshot = snapshot !== undefined && rulesAsInSnapshot !== undefined && await rulesAsInSnapshot(path, isDir);
      const ignoredByRules = bySnapshot ? await inSnapshot(snapshot, path, isDir) : await inStandIn(path, isDir);
      if (!ignoredByRules) return false;
      // A dir is never an entry of the index: the rules decide.
      if (isDir) return true;
      // Asked in the stand-in, which must then hold the path's dirs and rules.
      await standInFor(path, false);
      return byIndex.ask(path);
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

/**
 * Whether the snapshot's checkout answers for `path` as the merged view would: no dir along it has a `.gitignore` the
 * task wrote, deleted or hid (an opaque dir: the snapshot has one the view lacks), and a file is no dir in the snapshot
 * (git there would take it for one). Each dir is looked at once per commit.
 */
function sameRulesAsSnapshot(snapshot: SnapshotRules, mergedDir: string): (path: string, isDir: boolean) => Promise<boolean> {
  const dirs = new Map<string, Promise<boolean>>();
  const exists = (path: Buffer) => lstat(path).then(() => true, () => false);
  const dirUnchanged = (dir: string): Promise<boolean> => {
    let known = dirs.get(dir);
    if (!known) {
      const rules = dir === '' ? '.gitignore' : `${dir}/.gitignore`;
      known = (async () => {
        const parent = dir.lastIndexOf('/');
        if (dir !== '' && !await dirUnchanged(parent === -1 ? '' : dir.slice(0, parent))) return false;
        if (await exists(onDisk(snapshot.upperDir, rules))) return false;
        return !(await exists(onDisk(snapshot.lower, rules))) || exists(onDisk(mergedDir, rules));
      })();
      dirs.set(dir, known);
    }
    return known;
  };
  return async (path, isDir) => {
    const slash = path.lastIndexOf('/');
    if (!await dirUnchanged(slash === -1 ? '' : path.slice(0, slash))) return false;
    if (isDir) return true;
    const below = await lstat(onDisk(snapshot.lower, path)).catch(() => undefined);
    return below?.isDirectory() !== true;
  };
}
