import { describe, expect, it } from 'vitest';
import { mergeToolCall, questionSubject } from './question-subject';

const WT = '/w/worktrees/r/t';

describe('questionSubject', () => {
  it("shows an edit's diff from the tool call's ACP diff content", () => {
    expect(questionSubject({ kind: 'edit', content: [{ type: 'diff', path: `${WT}/a.txt`, oldText: 'old\n', newText: 'new\n' }] }))
      .toEqual({ kind: 'edit', changes: [{ path: `${WT}/a.txt`, oldText: 'old\n', newText: 'new\n' }] });
  });

  it("shows an edit's old and new text from the agent's own input (Claude's Edit, OpenCode's edit)", () => {
    expect(questionSubject({ kind: 'edit', rawInput: { file_path: `${WT}/a.txt`, old_string: 'a', new_string: 'b' } }).changes)
      .toEqual([{ path: `${WT}/a.txt`, oldText: 'a', newText: 'b' }]);
    expect(questionSubject({ kind: 'edit', rawInput: { filePath: `${WT}/b.txt`, oldString: 'x', newString: 'y' } }).changes)
      .toEqual([{ path: `${WT}/b.txt`, oldText: 'x', newText: 'y' }]);
  });

  it("shows a new file's whole text (Claude's Write, Gemini's write_file) and each edit of a multi-edit", () => {
    expect(questionSubject({ kind: 'edit', rawInput: { file_path: `${WT}/hello.txt`, content: 'hi\n' } }).changes)
      .toEqual([{ path: `${WT}/hello.txt`, oldText: '', newText: 'hi\n' }]);
    expect(questionSubject({ rawInput: { file_path: 'f', edits: [{ old_string: '1', new_string: '2' }, { old_string: '3', new_string: '4' }] } }).changes)
      .toEqual([{ path: 'f', oldText: '1', newText: '2' }, { path: 'f', oldText: '3', newText: '4' }]);
  });

  it('shows a command and the directory it runs in, whether the agent sends a line or words', () => {
    expect(questionSubject({ kind: 'execute', rawInput: { command: 'npm test', description: 'Run tests' } }))
      .toEqual({ kind: 'execute', changes: [], command: { line: 'npm test' } });
    expect(questionSubject({ kind: 'execute', rawInput: { command: ['bash', '-lc', "echo 'hi' > out.txt"], cwd: `${WT}/sub` } }).command)
      .toEqual({ line: `bash -lc 'echo '\\''hi'\\'' > out.txt'`, cwd: `${WT}/sub` });
    expect(questionSubject({ kind: 'execute', rawInput: { command: 'ls', directory: '/tmp' } }).command).toEqual({ line: 'ls', cwd: '/tmp' });
    expect(questionSubject({ kind: 'execute', rawInput: { command: '/bin/sh', args: ['-c', 'npm test'] } }).command).toEqual({ line: "/bin/sh -c 'npm test'" });
  });

  it('finds nothing to show in a tool call that carries neither', () => {
    expect(questionSubject({ kind: 'fetch', rawInput: { url: 'https://example.com' } })).toEqual({ kind: 'fetch', changes: [] });
  });
});

describe('mergeToolCall', () => {
  it("fills what the request leaves out from the tool call the agent announced earlier (claude-code-acp's way)", () => {
    const streamed = { toolKind: 'execute', rawInput: { command: 'npm install' }, title: 'npm install' };
    expect(questionSubject(mergeToolCall({ toolCallId: 'c1', title: null }, streamed)).command).toEqual({ line: 'npm install' });
  });

  it("keeps the request's own description where it gives one", () => {
    expect(mergeToolCall({ title: 'Write a.txt' }, { title: 'older', toolKind: 'edit' })).toEqual({ title: 'Write a.txt', toolKind: 'edit' });
  });
});
