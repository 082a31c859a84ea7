// What a commit changed against its parent, read from what `git commit` printed as it made it (its short statistics and
// its summary of created and deleted files), so the turn's totals and names need no `git diff` of their own. Only a
// commit that created or deleted whole files is read this way: for those the summary names every file, and rename
// detection (which the summary does with rewrites broken, `git diff -M` without) has no other file to pair them with.
// Anything else (a modified file, a rename, a mode change, text git translated) is left to diffSummary.
import type { DiffSummary, NameStatus } from './task-diff';

/** `[branch sha] subject`: the first line git prints for the commit (`[detached HEAD sha]` without a branch). */
const HEADER = /^\[.* ([0-9a-f]{7,64})\] /;
const SHORT_STAT = /^ (\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?$/;
/** Modes of files whose lines both readers count alike: plain and executable files, symbolic links (not submodules). */
const SUMMARY_LINE = /^ (create|delete) mode (100644|100755|120000) (.+)$/;

/**
 * The summary of `head` against its parent from `git commit`'s output (stdout of the stage-and-commit shell: the
 * `add --verbose` lines come first), or undefined when the output does not say it all. `head` is the full sha.
 */
export function summaryFromCommitOutput(stdout: string, head: string): DiffSummary | undefined {
  const lines = stdout.split('\n');
  // The last header is git's: what `add --verbose` printed before it names files, which an agent names.
  let at = -1;
  for (let index = lines.length - 1; index >= 0; index--) {
    const header = HEADER.exec(lines[index] as string);
    if (header !== null) {
      if (!head.startsWith(header[1] as string)) return undefined;
      at = index;
      break;
    }
  }
  if (at < 0) return undefined;
  const stat = SHORT_STAT.exec(lines[at + 1] ?? '');
  if (stat === null) return undefined;
  const files = Number(stat[1]);
  const entries: NameStatus[] = [];
  for (const line of lines.slice(at + 2)) {
    if (line === '') continue;
    const summary = SUMMARY_LINE.exec(line);
    if (summary === null) return undefined;
    const path = unquotePath(summary[3] as string);
    if (path === undefined) return undefined;
    entries.push({ status: summary[1] === 'create' ? 'added' : 'deleted', path });
  }
  // A file changed in place has no summary line: then the summary does not name every file.
  if (entries.length !== files) return undefined;
  // In the order `git diff` lists them: by path, byte for byte.
  entries.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  return { entries, count: { files, additions: Number(stat[2] ?? 0), deletions: Number(stat[3] ?? 0) } };
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
/** One piece of a quoted path: an octal byte, an escaped character, or a run of plain text. */
const QUOTED_PIECE = /\\([0-3][0-7]{2})|\\(.)|([^\\"]+)/gsuy;

/** A path as git prints it: as it is, or C-quoted (`"…"` with backslash escapes and octal bytes); undefined if odd. */
export function unquotePath(printed: string): string | undefined {
  if (!printed.startsWith('"')) return printed.includes('\t') ? undefined : printed;
  if (printed.length < 2 || !printed.endsWith('"')) return undefined;
  const body = printed.slice(1, -1);
  const bytes: Buffer[] = [];
  QUOTED_PIECE.lastIndex = 0;
  let read = 0;
  for (let piece = QUOTED_PIECE.exec(body); piece !== null; piece = QUOTED_PIECE.exec(body)) {
    read = QUOTED_PIECE.lastIndex;
    const [, octal, escaped, plain] = piece;
    if (octal !== undefined) bytes.push(Buffer.from([Number.parseInt(octal, 8)]));
    else if (plain !== undefined) bytes.push(Buffer.from(plain));
    else if (escaped !== undefined && ESCAPES[escaped] !== undefined) bytes.push(Buffer.from([ESCAPES[escaped]]));
    else return undefined;
  }
  if (read !== body.length) return undefined;
  const raw = Buffer.concat(bytes);
  const path = raw.toString('utf8');
  // Bytes that are not UTF-8 cannot be named back the way `git diff -z` names them here.
  return Buffer.from(path).equals(raw) ? path : undefined;
}
