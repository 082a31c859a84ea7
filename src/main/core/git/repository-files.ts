// What `git rev-parse --show-toplevel --absolute-git-dir --git-common-dir [HEAD --symbolic-full-name HEAD]` answers for
// the folder a person names, read from the repository's files when the answer cannot differ from git's: the folder is
// the top level of a plain checkout (its own `.git` folder, owned by this user, with no setting that moves the work
// tree or makes it bare, no include, no other ref storage). Anything else is left to git itself (undefined), which
// also refuses what it refuses. Why: starting git is the one process a start still made before it answered (about
// 4–8 ms of the start's main thread, bench/README.md's ninth pass); these are a dozen small reads.
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

/** The lines git prints for the question above, or undefined when git must be asked. */
export function repositoryLinesFromFiles(path: string, options: { head: boolean; uid?: number }): string | undefined {
  try {
    const top = realpathSync.native(path);
    const gitDir = join(top, '.git');
    const uid = options.uid ?? process.geteuid?.();
    const gitStat = lstatSync(gitDir);
    // A `.git` file (a linked worktree, a submodule) or a link: git follows it; so does the fallback.
    if (!gitStat.isDirectory() || uid === undefined) return undefined;
    // git's safe.directory check: a repository another user owns is git's to accept or refuse.
    if (gitStat.uid !== uid || lstatSync(top).uid !== uid) return undefined;
    if (exists(join(gitDir, 'commondir')) || exists(join(gitDir, 'reftable'))) return undefined;
    // What git needs to call a folder a repository at all; without them it is git's to say what is wrong.
    if (!isDirectory(join(gitDir, 'objects')) || !isDirectory(join(gitDir, 'refs'))) return undefined;
    if (!plainConfig(readFileSync(join(gitDir, 'config'), 'utf8'))) return undefined;
    const lines = [top, gitDir, gitDir];
    if (options.head) {
      const head = headOf(gitDir);
      if (head === undefined) return undefined;
      lines.push(head.commit, head.ref);
    }
    return `${lines.join('\n')}\n`;
  } catch {
    return undefined;
  }
}

/**
 * A config git reads as a plain non-bare repository whose work tree is where its `.git` is: no `core.worktree`, no
 * `core.bare = true`, no include that could set either, no extension (another ref storage, per-worktree config).
 */
export function plainConfig(text: string): boolean {
  const settings = text.split('\n').map((line) => line.replace(/[#;].*$/, '').trim().toLowerCase()).filter(Boolean);
  return !settings.some((line) => line.startsWith('[include') || line.startsWith('[extensions') || /^worktree\s*=/.test(line)
    || line === 'bare' || /^bare\s*=\s*(true|yes|on|1)$/.test(line));
}

/** HEAD's commit and the ref it names (`HEAD` when detached); undefined when git must say (unborn, nested, odd). */
function headOf(gitDir: string): { commit: string; ref: string } | undefined {
  const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
  if (isObjectName(head)) return { commit: head, ref: 'HEAD' };
  const ref = /^ref: (refs\/heads\/[^\s]+)$/.exec(head)?.[1];
  if (ref === undefined || ref.split('/').some((part) => part === '..' || part === '.' || part === '')) return undefined;
  const loose = readIfThere(join(gitDir, ref))?.trim();
  if (loose !== undefined) return isObjectName(loose) ? { commit: loose, ref } : undefined;
  const packed = readIfThere(join(gitDir, 'packed-refs'))?.split('\n').find((line) => line.endsWith(` ${ref}`))?.split(' ')[0];
  return packed !== undefined && isObjectName(packed) ? { commit: packed, ref } : undefined;
}

const isObjectName = (text: string) => /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(text);

function isDirectory(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

function exists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
