// The ref snapshot a task's git dir is made from, composed from git's ref files as read: exactly the text
// `git for-each-ref --format=REF_SNAPSHOT_FORMAT REF_SNAPSHOT_PATTERNS` prints, or what keeps the files from saying it.
// Pure: ref-snapshot.ts reads the files and knows the objects.
import { taskBranchFolderOf } from './branch-names';
import { REF_SNAPSHOT_PATTERNS } from './task-git-dir-plan';

/** What git's files backend holds under the snapshot's prefixes, as read (see ref-files.ts). */
export interface RefFiles {
  /** Loose ref files by full ref name (`refs/heads/main`), their text as read. */
  loose: ReadonlyMap<string, string>;
  /** The packed-refs file's text; undefined when there is none. */
  packed: string | undefined;
}

/**
 * What an object dereferences to once, as `%(*objectname)` shows it: `null` for an object that is no annotated tag,
 * the tagged object's name for one, `undefined` when not known without asking git.
 */
export type DerefOf = (object: string) => string | null | undefined;

export type SnapshotFromFiles =
  /** The snapshot, and what the packed-refs file told of objects that are no tags (worth remembering). */
  | { kind: 'text'; text: string; untagged: readonly string[] }
  /** Plain files, but these objects are not known to be tags or not: read them, or ask git. */
  | { kind: 'unknown'; objects: readonly string[]; untagged: readonly string[] }
  /** Something only git can read as git would (a ref that is neither an object nor a plain symbolic one, an odd line). */
  | { kind: 'ask-git'; why: string };

/** The refs the snapshot lists (git matches a pattern as a whole path prefix). */
export const SNAPSHOT_PREFIXES: readonly string[] = REF_SNAPSHOT_PATTERNS.map((pattern) => `${pattern}/`);

/**
 * What a task is not shown of the snapshot: its desk's other task branches (every ref under `hiddenDir`, e.g.
 * `refs/heads/desk/k3f9qz2a/`, but `own`). They hold other tasks' work, approved or not, which is no task's to build
 * on (a dependency's work reaches a task through its base); and a desk keeps a branch for every task it ran, so
 * every task's start would read them all.
 */
export interface HiddenTaskBranches {
  hiddenDir: string;
  own: string;
}

/** The desk's other task branches, which a task on `branchRef` is not shown; undefined for a branch no desk task has. */
export function hiddenTaskBranchesFor(branchRef: string): HiddenTaskBranches | undefined {
  const folder = taskBranchFolderOf(branchRef.slice('refs/heads/'.length));
  return folder === undefined ? undefined : { hiddenDir: `refs/heads/${folder}`, own: branchRef };
}

/** Whether the ref `name` is in a task's view. */
export function shownToTask(name: string, hidden: HiddenTaskBranches | undefined): boolean {
  return hidden === undefined || !name.startsWith(hidden.hiddenDir) || name === hidden.own;
}

const OBJECT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
// Names git writes for branches and tags in the usual case; anything else (spaces are not allowed, but other bytes
// are) is left to git, which also sorts it: compared as text here, names of these characters sort as git's bytes do.
const PLAIN_PART = /^[A-Za-z0-9_+,=@-][A-Za-z0-9._+,=@-]*$/;

/** Whether `name` is a ref name the files may answer for: plain parts, none ending in `.lock` or `.`. */
export function plainRefName(name: string): boolean {
  const parts = name.split('/');
  return parts.length >= 3 && parts.every((part) => PLAIN_PART.test(part) && !part.endsWith('.lock') && !part.endsWith('.') && !part.includes('..'));
}

interface Entry { object: string; deref?: string | null }

/**
 * packed-refs as git reads it: `<object> <name>` lines, each annotated tag's followed by `^<peeled>`. Under the
 * `fully-peeled` trait a ref without that line is no tag; the `^` object is the innermost one, which `%(*objectname)`
 * shows only for a tag of a non-tag, so it is not taken (the caller's DerefOf knows, or git is asked).
 */
function parsePacked(text: string, hidden: HiddenTaskBranches | undefined): Map<string, Entry> | string {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const header = lines[0]?.startsWith('# pack-refs with:') ? lines.shift() : undefined;
  if (lines.length > 0 && !header?.split(' ').includes('fully-peeled')) return 'packed-refs was written without peel data';
  const refs = new Map<string, Entry>();
  let last: Entry | undefined;
  for (const line of lines) {
    if (line.startsWith('^')) {
      if (!last || !OBJECT.test(line.slice(1))) return 'packed-refs has a peel line git would not read';
      last.deref = undefined;
      last = undefined;
      continue;
    }
    const space = line.indexOf(' ');
    const object = line.slice(0, space);
    const name = line.slice(space + 1);
    if (space < 0 || !OBJECT.test(object) || !name.startsWith('refs/')) return 'packed-refs has a line git would not read';
    last = { object, deref: null };
    // Refs outside the snapshot (archives, notes, a filter-branch backup's tags) are read past, peel lines and all.
    if (!SNAPSHOT_PREFIXES.some((prefix) => name.startsWith(prefix)) || !shownToTask(name, hidden)) continue;
    if (!plainRefName(name)) return `packed-refs names ${name}`;
    refs.set(name, last);
  }
  return refs;
}

/** The snapshot from `files`, with `derefOf` for what loose refs and packed tags point at, without `hidden`'s refs. */
export function snapshotFromFiles(files: RefFiles, derefOf: DerefOf, hidden?: HiddenTaskBranches): SnapshotFromFiles {
  const packed = parsePacked(files.packed ?? '', hidden);
  if (typeof packed === 'string') return { kind: 'ask-git', why: packed };
  const untagged = [...packed.values()].filter((entry) => entry.deref === null).map((entry) => entry.object);
  const refs = new Map(packed);
  const symbolic = new Map<string, string>();
  for (const [name, text] of files.loose) {
    if (!shownToTask(name, hidden)) continue;
    if (!plainRefName(name)) return { kind: 'ask-git', why: `the ref name ${name}` };
    const line = text.endsWith('\n') ? text.slice(0, -1) : text;
    const target = /^ref: (refs\/\S+)$/.exec(line)?.[1];
    if (target !== undefined) {
      symbolic.set(name, target);
      refs.delete(name);
    } else if (OBJECT.test(line)) refs.set(name, { object: line });
    else return { kind: 'ask-git', why: `${name} is not a plain ref` };
  }
  // A symbolic ref (a clone's refs/remotes/origin/HEAD) is listed with what it names; one naming another symbolic
  // ref, or a ref not read here, is git's to follow.
  for (const [name, target] of symbolic) {
    const named = refs.get(target);
    if (named === undefined || symbolic.has(target)) return { kind: 'ask-git', why: `${name} names ${target}` };
    refs.set(name, named);
  }
  const unknown = new Set<string>();
  const lines: string[] = [];
  for (const name of [...refs.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const entry = refs.get(name) as Entry;
    // Known from packed-refs to be no tag, else asked.
    const deref = entry.deref === null ? null : derefOf(entry.object);
    if (deref === undefined) unknown.add(entry.object);
    else lines.push(`${entry.object} ${deref ?? ''} ${name}`);
  }
  if (unknown.size > 0) return { kind: 'unknown', objects: [...unknown], untagged };
  return { kind: 'text', text: lines.join('\n'), untagged };
}
