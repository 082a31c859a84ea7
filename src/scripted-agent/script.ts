// The scripted agent's language: turns prompt text into typed commands, one per line.
// Pure: no I/O, so both dialects and the unit tests share the exact same reading of a script.

export type ScriptCommand =
  | { kind: 'say'; text: string }
  | { kind: 'think'; text: string }
  | { kind: 'plan'; entries: string[] }
  /** `askFirst`: asks permission for the write first, describing it only in the tool call before (as claude-code-acp does). */
  | { kind: 'write'; path: string; text: string; askFirst?: true }
  | { kind: 'append'; path: string; text: string }
  | { kind: 'delete'; path: string }
  | { kind: 'resolve'; path: string; keep: ConflictSide }
  | { kind: 'move'; from: string; to: string }
  | { kind: 'read'; path: string }
  | { kind: 'run'; command: string; askFirst?: true }
  | { kind: 'ask'; question: string }
  /** From here on in the turn, permission requests offer "Always allow" too (see standing-permissions.ts). */
  | { kind: 'offer-always' }
  | { kind: 'question'; text: string }
  | { kind: 'sleep'; ms: number }
  /** A model call that took this many input and output tokens: reported as usage, and summed into the turn's. */
  | { kind: 'usage'; input: number; output: number }
  | { kind: 'fail'; message: string }
  | { kind: 'crash'; code: number }
  | { kind: 'flood'; count: number }
  | { kind: 'spew'; bytes: number; chunkBytes: number }
  | { kind: 'mcp'; tool: 'list_tasks' | 'propose_task' | 'link_dependency' | 'read_diff'; args: Record<string, string> };

export type ScriptCommandKind = ScriptCommand['kind'];

/** Which side of each conflict `resolve` keeps: the branch's own (`ours`), the merged-in one (`theirs`), or both in order. */
export type ConflictSide = 'ours' | 'theirs' | 'both';

const DEFAULT_FAIL_MESSAGE = 'Scripted failure';
const DEFAULT_CRASH_CODE = 1;
const DEFAULT_SPEW_CHUNK = 1024;
/** A chunk is one JSON-RPC line; the desk reads lines of at most a few MiB. */
const MAX_SPEW_CHUNK = 1024 * 1024;

/**
 * Reads a prompt as a script. Lines are trimmed and blank ones skipped; a line that does not
 * form a valid command (unknown keyword, missing or malformed argument) is said as it is.
 */
export function parseScript(prompt: string): ScriptCommand[] {
  return prompt
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map(parseLine);
}

/** Reads one trimmed, non-empty line. */
export function parseLine(line: string): ScriptCommand {
  const [keyword, rest] = splitFirstWord(line);
  return parseCommand(keyword, rest) ?? { kind: 'say', text: unescapeText(line) };
}

// Returns undefined when the line is not a well-formed command, so the caller says it instead.
function parseCommand(keyword: string, rest: string): ScriptCommand | undefined {
  switch (keyword) {
    case 'say':
      return { kind: 'say', text: unescapeText(rest) };
    case 'think':
      return { kind: 'think', text: unescapeText(rest) };
    case 'plan':
      return {
        kind: 'plan',
        entries: rest.split(';').map((entry) => unescapeText(entry.trim())).filter((entry) => entry !== ''),
      };
    case 'write':
    case 'append': {
      const [path, text] = splitFirstWord(rest);
      return path === '' ? undefined : { kind: keyword, path, text: unescapeText(text) };
    }
    case 'resolve': {
      const [path, keep] = splitFirstWord(rest);
      if (path === '') return undefined;
      if (keep === '') return { kind: 'resolve', path, keep: 'both' };
      return keep === 'ours' || keep === 'theirs' || keep === 'both' ? { kind: 'resolve', path, keep } : undefined;
    }
    case 'delete':
    case 'read':
      // A path is one word; anything after it would be silently ignored, so refuse the line instead.
      return rest === '' || /\s/.test(rest) ? undefined : { kind: keyword, path: rest };
    case 'move': {
      // Two path words, nothing more: a third word would be silently ignored.
      const paths = rest.split(/\s+/);
      const [from, to] = paths;
      return paths.length !== 2 || from === undefined || to === undefined || from === '' ? undefined : { kind: 'move', from, to };
    }
    case 'ask-write': {
      const [path, text] = splitFirstWord(rest);
      return path === '' ? undefined : { kind: 'write', path, text: unescapeText(text), askFirst: true };
    }
    case 'run':
      // The command goes to a shell verbatim: a `\n` there is the shell's business, not ours.
      return rest === '' ? undefined : { kind: 'run', command: rest };
    case 'ask-run':
      // As a careful agent does: ask permission for the command line, then run it.
      return rest === '' ? undefined : { kind: 'run', command: rest, askFirst: true };
    case 'ask':
      return rest === '' ? undefined : { kind: 'ask', question: unescapeText(rest) };
    case 'offer-always':
      return rest === '' ? { kind: 'offer-always' } : undefined;
    case 'question':
      return rest === '' ? undefined : { kind: 'question', text: unescapeText(rest) };
    case 'sleep': {
      const ms = parseCount(rest);
      return ms === undefined ? undefined : { kind: 'sleep', ms };
    }
    case 'usage': {
      const [inputText, outputText] = splitFirstWord(rest);
      const input = parseCount(inputText);
      const output = parseCount(outputText);
      return input === undefined || output === undefined ? undefined : { kind: 'usage', input, output };
    }
    case 'fail':
      return { kind: 'fail', message: rest === '' ? DEFAULT_FAIL_MESSAGE : unescapeText(rest) };
    case 'crash': {
      if (rest === '') return { kind: 'crash', code: DEFAULT_CRASH_CODE };
      const code = parseCount(rest);
      // Exit codes are a byte on every platform we run on.
      return code === undefined || code > 255 ? undefined : { kind: 'crash', code };
    }
    case 'flood': {
      const count = parseCount(rest);
      return count === undefined ? undefined : { kind: 'flood', count };
    }
    case 'spew': {
      const [bytesText, chunkText] = splitFirstWord(rest);
      const bytes = parseSize(bytesText);
      const chunkBytes = chunkText === '' ? DEFAULT_SPEW_CHUNK : parseSize(chunkText);
      if (bytes === undefined || chunkBytes === undefined || chunkBytes < 1 || chunkBytes > MAX_SPEW_CHUNK) return undefined;
      return { kind: 'spew', bytes, chunkBytes };
    }
    case 'mcp':
      return parseMcp(rest);
    default:
      return undefined;
  }
}

/** `mcp list [status]`, `mcp propose <id> <prompt>`, `mcp link <task> <depends-on>`, `mcp diff <task>`: a tool of the desk's MCP server. */
function parseMcp(rest: string): ScriptCommand | undefined {
  const [verb, tail] = splitFirstWord(rest);
  const words = tail === '' ? [] : tail.split(/\s+/);
  switch (verb) {
    case 'list':
      return words.length > 1 ? undefined : { kind: 'mcp', tool: 'list_tasks', args: words[0] ? { status: words[0] } : {} };
    case 'propose': {
      const [id, prompt] = splitFirstWord(tail);
      return id === '' || prompt === '' ? undefined : { kind: 'mcp', tool: 'propose_task', args: { id, prompt: unescapeText(prompt) } };
    }
    case 'link':
      return words.length !== 2 ? undefined : { kind: 'mcp', tool: 'link_dependency', args: { task: words[0] as string, dependsOn: words[1] as string } };
    case 'diff':
      return words.length !== 1 ? undefined : { kind: 'mcp', tool: 'read_diff', args: { task: words[0] as string } };
    default:
      return undefined;
  }
}

function splitFirstWord(text: string): [string, string] {
  const match = /^(\S+)\s*([\s\S]*)$/.exec(text);
  return match ? [match[1] ?? '', match[2] ?? ''] : ['', ''];
}

function parseCount(text: string): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** A count of bytes, with an optional binary suffix: `1024`, `64k`, `20m`, `1g`. */
function parseSize(text: string): number | undefined {
  const match = /^(\d+)([kmg]?)$/i.exec(text);
  if (!match) return undefined;
  const value = Number(match[1]) * 1024 ** ' kmg'.indexOf((match[2] || ' ').toLowerCase());
  return Number.isSafeInteger(value) ? value : undefined;
}

/** A prompt line cannot hold a newline, so scripts spell one as a literal backslash-n. */
export function unescapeText(text: string): string {
  return text.replaceAll('\\n', '\n');
}

/**
 * The text with every conflict (`<<<<<<<` … `=======` … `>>>>>>>`, with an optional `|||||||` base section) replaced by
 * the side(s) `keep` names; text outside conflicts is kept as it is.
 */
export function resolveConflictMarkers(text: string, keep: ConflictSide): string {
  const out: string[] = [];
  let section: 'outside' | 'ours' | 'base' | 'theirs' = 'outside';
  let ours: string[] = [];
  let theirs: string[] = [];
  for (const line of text.split(/(?<=\n)/)) {
    if (section === 'outside' && line.startsWith('<<<<<<<')) { section = 'ours'; ours = []; theirs = []; continue; }
    if (section === 'ours' && line.startsWith('|||||||')) { section = 'base'; continue; }
    if ((section === 'ours' || section === 'base') && /^=======\r?\n?$/.test(line)) { section = 'theirs'; continue; }
    if (section === 'theirs' && line.startsWith('>>>>>>>')) {
      out.push(...(keep === 'theirs' ? [] : ours), ...(keep === 'ours' ? [] : theirs));
      section = 'outside';
      continue;
    }
    if (section === 'ours') ours.push(line);
    else if (section === 'theirs') theirs.push(line);
    else if (section === 'outside') out.push(line);
  }
  return out.join('');
}
