import { describe, expect, it } from 'vitest';
import { appendToStream, createStream } from './task-stream';
import { chunk, envelope, summary } from './test-events';

describe('task stream', () => {
  it('merges consecutive message chunks into one message', () => {
    const stream = createStream();
    appendToStream(stream, [envelope(1, 't', chunk('Hel')), envelope(2, 't', chunk('lo'))]);
    expect(stream.items).toEqual([{ key: '1', kind: 'message', role: 'agent', text: 'Hello' }]);
  });

  it('shows only the unseen rest of a stored run that replaces chunks it saw live', () => {
    const stream = createStream();
    const live = (seq: number, text: string, offset: number) => envelope(seq, 't', { type: 'agent', update: { kind: 'message', role: 'agent', text }, run: { from: 1, offset } });
    appendToStream(stream, [live(1, 'Hel', 0), live(2, 'lo ', 3)]);
    // Reconnected: the store's event for chunks 1–4 arrives, numbered by its last chunk.
    appendToStream(stream, [envelope(4, 't', { type: 'agent', update: { kind: 'message', role: 'agent', text: 'Hello world' }, run: { from: 1, offset: 0 } })]);
    appendToStream(stream, [envelope(5, 't', { type: 'agent', update: { kind: 'message', role: 'agent', text: '!' }, run: { from: 5, offset: 0 } })]);
    expect(stream.items).toEqual([{ key: '1', kind: 'message', role: 'agent', text: 'Hello world!' }]);
  });

  it('shows an update of a kind the desk does not know as text, and keeps known unmodelled ones out of the way', () => {
    const stream = createStream();
    appendToStream(stream, [
      envelope(1, 't', { type: 'agent', update: { kind: 'other', name: 'repository_indexing', data: {}, text: 'Indexing the repository' } }),
      envelope(2, 't', { type: 'agent', update: { kind: 'other', name: 'usage_update', data: { used: 10 } } }),
    ]);
    expect(stream.items).toEqual([{ key: '1', kind: 'log', level: 'info', source: 'agent', text: 'repository_indexing: Indexing the repository' }]);
  });

  it('shows where the desk dropped output and how much', () => {
    const stream = createStream();
    appendToStream(stream, [envelope(1, 't', chunk('start')), envelope(2, 't', { type: 'output-truncated', droppedBytes: 1234 }), envelope(3, 't', chunk('end'))]);
    expect(stream.items.map((item) => item.kind)).toEqual(['message', 'truncated', 'message']);
    expect(stream.items[1]).toEqual({ key: '2', kind: 'truncated', droppedBytes: 1234 });
  });

  it('starts a new message after a tool call', () => {
    const stream = createStream();
    appendToStream(stream, [
      envelope(1, 't', chunk('A')),
      envelope(2, 't', { type: 'agent', update: { kind: 'tool-call', toolCallId: 'c', title: 'Read x' } }),
      envelope(3, 't', chunk('B')),
    ]);
    expect(stream.items.map((item) => item.kind)).toEqual(['message', 'tool', 'message']);
  });

  it('keeps thoughts apart from messages', () => {
    const stream = createStream();
    appendToStream(stream, [envelope(1, 't', chunk('hmm', 'thought')), envelope(2, 't', chunk('Done'))]);
    expect(stream.items.map((item) => item.kind)).toEqual(['thought', 'message']);
  });

  it('updates a tool call in place with what changed', () => {
    const stream = createStream();
    appendToStream(stream, [
      envelope(1, 't', { type: 'agent', update: { kind: 'tool-call', toolCallId: 'c', title: 'Run tests', toolKind: 'execute', status: 'pending' } }),
      envelope(2, 't', { type: 'agent', update: { kind: 'tool-call-update', toolCallId: 'c', status: 'completed' } }),
    ]);
    expect(stream.items).toHaveLength(1);
    expect(stream.items[0]).toMatchObject({ title: 'Run tests', toolKind: 'execute', status: 'completed' });
  });

  it('replaces the plan where it first appeared', () => {
    const stream = createStream();
    appendToStream(stream, [
      envelope(1, 't', { type: 'agent', update: { kind: 'plan', entries: [{ content: 'A', status: 'pending' }] } }),
      envelope(2, 't', chunk('working')),
      envelope(3, 't', { type: 'agent', update: { kind: 'plan', entries: [{ content: 'A', status: 'completed' }] } }),
    ]);
    expect(stream.items[0]).toMatchObject({ kind: 'plan', entries: [{ content: 'A', status: 'completed' }] });
  });

  it('keeps terminal output in a buffer and tells its listeners, without a new row', () => {
    const stream = createStream();
    appendToStream(stream, [envelope(1, 't', { type: 'terminal-started', terminalId: 'x', command: 'echo', args: ['hi'], cwd: '/w' })]);
    const heard: string[] = [];
    stream.terminals.get('x')?.listeners.add((data) => heard.push(data));
    const changed = appendToStream(stream, [envelope(2, 't', { type: 'terminal-output', terminalId: 'x', data: 'hi\r\n' })]);
    expect([changed, heard, stream.items.length]).toEqual([false, ['hi\r\n'], 1]);
    appendToStream(stream, [envelope(3, 't', { type: 'terminal-exited', terminalId: 'x', exitCode: 0, signal: null })]);
    expect(stream.items[0]).toMatchObject({ kind: 'terminal', command: 'echo hi', exit: { exitCode: 0 } });
  });

  it('shows a terminal once, inside the tool call that ran it', () => {
    const stream = createStream();
    appendToStream(stream, [
      envelope(1, 't', { type: 'agent', update: { kind: 'tool-call', toolCallId: 'c', title: 'echo hi', toolKind: 'execute' } }),
      envelope(2, 't', { type: 'terminal-started', terminalId: 'x', command: 'sh', args: ['-c', 'echo hi'], cwd: '/w' }),
      envelope(3, 't', { type: 'agent', update: { kind: 'tool-call-update', toolCallId: 'c', content: [{ type: 'terminal', terminalId: 'x' }] } }),
    ]);
    expect(stream.items[1]).toMatchObject({ kind: 'terminal', owned: true });
  });

  it('shows a status change once, not every summary update', () => {
    const stream = createStream();
    appendToStream(stream, [
      envelope(1, 't', { type: 'task', task: summary('t', { status: 'in-progress' }) }),
      envelope(2, 't', { type: 'task', task: summary('t', { status: 'in-progress', title: 'new' }) }),
    ]);
    expect(stream.items).toHaveLength(1);
  });

  it('skips events it already holds, so history and live events can overlap', () => {
    const stream = createStream();
    appendToStream(stream, [envelope(1, 't', chunk('A')), envelope(2, 't', chunk('B'))]);
    appendToStream(stream, [envelope(2, 't', chunk('B')), envelope(3, 't', chunk('C'))]);
    expect(stream.items[0]).toMatchObject({ text: 'ABC' });
  });

  it('continues a very long message in a new row at a line break, so floods stay virtualized', () => {
    const stream = createStream();
    appendToStream(stream, Array.from({ length: 2000 }, (_, i) => envelope(i + 1, 't', chunk(`flood ${i + 1}\n`))));
    expect(stream.items.length).toBeGreaterThan(3);
    expect(stream.items.every((item) => item.kind === 'message' && item.text.length < 4100)).toBe(true);
  });

  it('handles 50,000 chunks quickly', () => {
    const stream = createStream();
    const events = Array.from({ length: 50_000 }, (_, i) => envelope(i + 1, 't', i % 10 === 0 ? chunk('x', 'thought') : chunk('y')));
    const started = performance.now();
    appendToStream(stream, events);
    expect(stream.items).toHaveLength(10_000);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
