// How the scripted agent reads a prompt: one command per line, anything else is said as it is.
import { describe, it, expect } from 'vitest';
import { parseScript, resolveConflictMarkers } from './script';

describe('parseScript', () => {
  it('reads one command per line, trimming lines and skipping blank ones', () => {
    expect(parseScript('  say hello  \n\n   \nthink hmm\r\n')).toEqual([
      { kind: 'say', text: 'hello' },
      { kind: 'think', text: 'hmm' },
    ]);
  });

  it('says a line that is not a command, whole', () => {
    expect(parseScript('Fix the login bug please')).toEqual([{ kind: 'say', text: 'Fix the login bug please' }]);
  });

  it('treats keywords as case-sensitive words, not prefixes', () => {
    expect(parseScript('Say hi\nsaying hi')).toEqual([
      { kind: 'say', text: 'Say hi' },
      { kind: 'say', text: 'saying hi' },
    ]);
  });

  it('turns a literal backslash-n in text into a newline', () => {
    expect(parseScript('say one\\ntwo\nwrite a.txt x\\ny')).toEqual([
      { kind: 'say', text: 'one\ntwo' },
      { kind: 'write', path: 'a.txt', text: 'x\ny' },
    ]);
  });

  it('leaves a backslash-n in a shell command alone', () => {
    expect(parseScript("run printf 'a\\nb'")).toEqual([{ kind: 'run', command: "printf 'a\\nb'" }]);
  });

  it('splits a plan on semicolons into trimmed, non-empty entries', () => {
    expect(parseScript('plan  Read code ; Fix bug;; Test ;')).toEqual([
      { kind: 'plan', entries: ['Read code', 'Fix bug', 'Test'] },
    ]);
  });

  it('reads file commands as a path word followed by the text', () => {
    expect(parseScript('write notes/a.txt Hello  world\nappend /tmp/b.txt more\ndelete x.txt\nread y.txt')).toEqual([
      { kind: 'write', path: 'notes/a.txt', text: 'Hello  world' },
      { kind: 'append', path: '/tmp/b.txt', text: 'more' },
      { kind: 'delete', path: 'x.txt' },
      { kind: 'read', path: 'y.txt' },
    ]);
  });

  it('reads move as two path words, from and to', () => {
    expect(parseScript('move old.txt docs/new.txt\nmove  a.txt   b.txt ')).toEqual([
      { kind: 'move', from: 'old.txt', to: 'docs/new.txt' },
      { kind: 'move', from: 'a.txt', to: 'b.txt' },
    ]);
  });

  it('says a move that lacks a path or carries extra words', () => {
    expect(parseScript('move\nmove a.txt\nmove a.txt b.txt c.txt')).toEqual([
      { kind: 'say', text: 'move' },
      { kind: 'say', text: 'move a.txt' },
      { kind: 'say', text: 'move a.txt b.txt c.txt' },
    ]);
  });

  it('reads ask-run as a command to run after asking permission for it', () => {
    expect(parseScript('ask-run npm test\nask-run')).toEqual([
      { kind: 'run', command: 'npm test', askFirst: true },
      { kind: 'say', text: 'ask-run' },
    ]);
  });

  it('writes an empty line when write has a path but no text', () => {
    expect(parseScript('write empty.txt')).toEqual([{ kind: 'write', path: 'empty.txt', text: '' }]);
  });

  it('says file commands that lack a path or carry extra words', () => {
    expect(parseScript('write\ndelete\nread a b')).toEqual([
      { kind: 'say', text: 'write' },
      { kind: 'say', text: 'delete' },
      { kind: 'say', text: 'read a b' },
    ]);
  });

  it('reads run, ask and question with the rest of the line as their argument', () => {
    expect(parseScript('run npm test -- --run\nask May I push?\nquestion Which branch?')).toEqual([
      { kind: 'run', command: 'npm test -- --run' },
      { kind: 'ask', question: 'May I push?' },
      { kind: 'question', text: 'Which branch?' },
    ]);
  });

  it('reads spew sizes in bytes with k, m and g suffixes, and refuses chunks past a line the desk reads', () => {
    expect(parseScript('spew 20m\nspew 1g 64k\nspew 100 7\nspew 10 2m\nspew lots')).toEqual([
      { kind: 'spew', bytes: 20 * 1024 * 1024, chunkBytes: 1024 },
      { kind: 'spew', bytes: 1024 ** 3, chunkBytes: 64 * 1024 },
      { kind: 'spew', bytes: 100, chunkBytes: 7 },
      { kind: 'say', text: 'spew 10 2m' },
      { kind: 'say', text: 'spew lots' },
    ]);
  });

  it('reads numeric arguments of sleep, flood and crash', () => {
    expect(parseScript('sleep 250\nflood 1000\ncrash 3\ncrash')).toEqual([
      { kind: 'sleep', ms: 250 },
      { kind: 'flood', count: 1000 },
      { kind: 'crash', code: 3 },
      { kind: 'crash', code: 1 },
    ]);
  });

  it('says numeric commands whose argument is not a non-negative integer', () => {
    expect(parseScript('sleep soon\nflood -1\ncrash 300\nsleep')).toEqual([
      { kind: 'say', text: 'sleep soon' },
      { kind: 'say', text: 'flood -1' },
      { kind: 'say', text: 'crash 300' },
      { kind: 'say', text: 'sleep' },
    ]);
  });

  it('reads ask-write as a write that asks permission first', () => {
    expect(parseScript('ask-write notes/a.txt hello\\nthere\nask-write')).toEqual([
      { kind: 'write', path: 'notes/a.txt', text: 'hello\nthere', askFirst: true },
      { kind: 'say', text: 'ask-write' },
    ]);
  });

  it('reads offer-always alone as the switch to offer "Always allow", and says it with anything after it', () => {
    expect(parseScript('offer-always\noffer-always now')).toEqual([
      { kind: 'offer-always' },
      { kind: 'say', text: 'offer-always now' },
    ]);
  });

  it('reads usage as the input and output tokens of a model call, and says a usage line without two counts', () => {
    expect(parseScript('usage 1000 200\nusage 1000\nusage many 2')).toEqual([
      { kind: 'usage', input: 1000, output: 200 },
      { kind: 'say', text: 'usage 1000' },
      { kind: 'say', text: 'usage many 2' },
    ]);
  });

  it('gives fail a default message when none is written', () => {
    expect(parseScript('fail Tests are red\nfail')).toEqual([
      { kind: 'fail', message: 'Tests are red' },
      { kind: 'fail', message: 'Scripted failure' },
    ]);
  });

  it('reads an empty prompt as no commands', () => {
    expect(parseScript('')).toEqual([]);
  });

  it('reads mcp commands as calls of the desk\'s MCP tools, and says a malformed one', () => {
    expect(parseScript('mcp list\nmcp list queued\nmcp propose docs write docs.md A\\nB\nmcp link b a\nmcp diff b\nmcp link b\nmcp fly')).toEqual([
      { kind: 'mcp', tool: 'list_tasks', args: {} },
      { kind: 'mcp', tool: 'list_tasks', args: { status: 'queued' } },
      { kind: 'mcp', tool: 'propose_task', args: { id: 'docs', prompt: 'write docs.md A\nB' } },
      { kind: 'mcp', tool: 'link_dependency', args: { task: 'b', dependsOn: 'a' } },
      { kind: 'mcp', tool: 'read_diff', args: { task: 'b' } },
      { kind: 'say', text: 'mcp link b' },
      { kind: 'say', text: 'mcp fly' },
    ]);
  });
});

describe('resolve', () => {
  const conflicted = 'top\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> abc123\nbottom\n';

  it('reads a path and the side to keep, both by default', () => {
    expect(parseScript('resolve index.d.ts\nresolve a.txt ours\nresolve b.txt theirs\nresolve c.txt sideways')).toEqual([
      { kind: 'resolve', path: 'index.d.ts', keep: 'both' },
      { kind: 'resolve', path: 'a.txt', keep: 'ours' },
      { kind: 'resolve', path: 'b.txt', keep: 'theirs' },
      { kind: 'say', text: 'resolve c.txt sideways' },
    ]);
  });

  it('removes every marker line, keeping the side(s) asked for and the text around the conflict', () => {
    expect(resolveConflictMarkers(conflicted, 'both')).toBe('top\nmine\ntheirs\nbottom\n');
    expect(resolveConflictMarkers(conflicted, 'ours')).toBe('top\nmine\nbottom\n');
    expect(resolveConflictMarkers(conflicted, 'theirs')).toBe('top\ntheirs\nbottom\n');
  });

  it('drops the base section of a diff3-style conflict', () => {
    expect(resolveConflictMarkers('<<<<<<< ours\na\n||||||| base\no\n=======\nb\n>>>>>>> theirs\n', 'both')).toBe('a\nb\n');
  });
});
