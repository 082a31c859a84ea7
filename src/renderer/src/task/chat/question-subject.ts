// What a permission question is about, so a person can judge it: the change an edit would make, or the command and
// where it runs. Agents describe a tool call in the request or only in the `tool_call` before it (claude-code-acp), in
// content blocks (ACP diffs) or in their own input shape, so both are read and merged. Pure.
import { isObject } from '../../../../shared/is-object';

export interface ProposedChange { path: string; oldText: string; newText: string }
export interface QuestionSubject {
  /** ACP tool kind, where known (`edit`, `execute`, …). */
  kind?: string;
  changes: ProposedChange[];
  command?: { line: string; cwd?: string };
}

/** The tool call as the request describes it, over what the stream knows of it (the request's fields win). */
export function mergeToolCall(requested: unknown, streamed: Record<string, unknown> | undefined): Record<string, unknown> {
  const fromRequest = isObject(requested) ? requested : {};
  const present = Object.fromEntries(Object.entries(fromRequest).filter(([, value]) => value !== undefined && value !== null));
  return { ...streamed, ...present };
}

const stringAt = (input: Record<string, unknown>, keys: readonly string[]): string | undefined => {
  for (const key of keys) if (typeof input[key] === 'string') return input[key];
  return undefined;
};

// The input field names vendor agents use: Claude (file_path, old_string, new_string, content), Gemini and Qwen
// (file_path, content, directory), OpenCode (filePath, oldString, newString), Codex (command as argv, cwd/workdir).
const PATH_KEYS = ['file_path', 'filePath', 'path', 'absolute_path'] as const;
const OLD_KEYS = ['old_string', 'oldString', 'old_str', 'oldText'] as const;
const NEW_KEYS = ['new_string', 'newString', 'new_str', 'newText', 'content'] as const;
const CWD_KEYS = ['cwd', 'workdir', 'directory', 'dir'] as const;

function quoted(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function commandLine(command: unknown): string | undefined {
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.length > 0 && command.every((word) => typeof word === 'string')) return command.map(quoted).join(' ');
  return undefined;
}

function changesOf(toolCall: Record<string, unknown>): ProposedChange[] {
  const content = Array.isArray(toolCall.content) ? toolCall.content : [];
  const diffs = content.flatMap((block): ProposedChange[] => {
    if (!isObject(block) || block.type !== 'diff' || typeof block.path !== 'string' || typeof block.newText !== 'string') return [];
    return [{ path: block.path, oldText: typeof block.oldText === 'string' ? block.oldText : '', newText: block.newText }];
  });
  if (diffs.length > 0) return diffs;
  const input = isObject(toolCall.rawInput) ? toolCall.rawInput : undefined;
  const path = input && stringAt(input, PATH_KEYS);
  if (!input || !path) return [];
  // Several edits of one file (Claude's MultiEdit): each its own change.
  if (Array.isArray(input.edits)) {
    return input.edits.flatMap((edit): ProposedChange[] => {
      if (!isObject(edit)) return [];
      const newText = stringAt(edit, NEW_KEYS);
      return newText === undefined ? [] : [{ path, oldText: stringAt(edit, OLD_KEYS) ?? '', newText }];
    });
  }
  const newText = stringAt(input, NEW_KEYS);
  return newText === undefined ? [] : [{ path, oldText: stringAt(input, OLD_KEYS) ?? '', newText }];
}

export function questionSubject(toolCall: Record<string, unknown>): QuestionSubject {
  const kind = typeof toolCall.kind === 'string' ? toolCall.kind : typeof toolCall.toolKind === 'string' ? toolCall.toolKind : undefined;
  const input = isObject(toolCall.rawInput) ? toolCall.rawInput : {};
  // A program with its arguments apart (ACP terminal/create's shape) reads as one line.
  const args = Array.isArray(input.args) && input.args.every((word) => typeof word === 'string') ? input.args : [];
  const line = typeof input.command === 'string' && args.length > 0 ? commandLine([input.command, ...args]) : commandLine(input.command) ?? commandLine(input.cmd);
  const cwd = stringAt(input, CWD_KEYS);
  // A command's input may name a file too (a path argument): it is still a command to judge, not an edit.
  const command = line !== undefined && (kind === undefined || kind === 'execute' || kind === 'other') ? { line, ...(cwd !== undefined && { cwd }) } : undefined;
  return { ...(kind !== undefined && { kind }), changes: command ? [] : changesOf(toolCall), ...(command && { command }) };
}
