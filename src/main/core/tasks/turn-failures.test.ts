import { describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../../shared/events';
import { createTurnFailures, noChangesOf } from './turn-failures';

const tool = (kind: 'tool-call' | 'tool-call-update', fields: Record<string, unknown>): TaskEvent =>
  ({ type: 'agent', update: { kind, toolCallId: 't1', ...fields } }) as TaskEvent;

describe('createTurnFailures', () => {
  it('names a failed tool call by the title it was given earlier, with the first line it answered', () => {
    const failures = createTurnFailures();
    failures.see(tool('tool-call', { title: 'Run cargo test', status: 'in_progress' }));
    failures.see(tool('tool-call-update', { status: 'failed', content: [{ type: 'content', content: { type: 'text', text: '\nerror: could not compile\nmore' } }] }));
    failures.see(tool('tool-call-update', { status: 'failed' }));
    expect(failures.list()).toEqual([{ title: 'Run cargo test', detail: 'error: could not compile' }]);
  });

  it('counts a command that exited non-zero or was killed, not one that succeeded', () => {
    const failures = createTurnFailures();
    failures.see({ type: 'terminal-started', terminalId: 'a', command: 'make', args: ['check'], cwd: '/w' });
    failures.see({ type: 'terminal-started', terminalId: 'b', command: 'true', args: [], cwd: '/w' });
    failures.see({ type: 'terminal-started', terminalId: 'c', command: 'sleep', args: ['99'], cwd: '/w' });
    failures.see({ type: 'terminal-exited', terminalId: 'a', exitCode: 2, signal: null });
    failures.see({ type: 'terminal-exited', terminalId: 'b', exitCode: 0, signal: null });
    failures.see({ type: 'terminal-exited', terminalId: 'c', exitCode: null, signal: 'SIGKILL' });
    expect(failures.list()).toEqual([{ title: 'make check', detail: 'exit code 2' }, { title: 'sleep 99', detail: 'killed by SIGKILL' }]);
  });

  it('keeps the first twenty failures of a turn that fails without end', () => {
    const failures = createTurnFailures();
    for (let i = 0; i < 50; i++) failures.see({ type: 'terminal-exited', terminalId: String(i), exitCode: 1, signal: null });
    expect(failures.list()).toHaveLength(20);
  });
});

describe('noChangesOf', () => {
  it('names the first three failures and counts the rest', () => {
    const steps = ['a', 'b', 'c', 'd', 'e'].map((title) => ({ title, detail: 'exit code 1' }));
    expect(noChangesOf('Codex', steps).summary).toBe('Codex ended its turn without changing any file, so nothing was committed. 5 steps failed: a (exit code 1); b (exit code 1); c (exit code 1); and 2 more.');
  });
});
