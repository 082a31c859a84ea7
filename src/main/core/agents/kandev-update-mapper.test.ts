import { describe, expect, it } from 'vitest';
import { mapKandevUpdate } from './kandev-update-mapper';

describe('mapKandevUpdate', () => {
  it('maps content to agent messages and thoughts', () => {
    const seen = new Set<string>();
    expect(mapKandevUpdate({ type: 'content', data: { text: 'hi' } }, seen)).toEqual({ kind: 'message', role: 'agent', text: 'hi' });
    expect(mapKandevUpdate({ type: 'content', data: { text: 'hm', thought: true } }, seen)).toEqual({ kind: 'message', role: 'thought', text: 'hm' });
  });

  it('announces a tool once, then updates it, classifying it the ACP way', () => {
    const seen = new Set<string>();
    expect(mapKandevUpdate({ type: 'toolCall', data: { toolCallId: 't1', toolName: 'file_edit', status: 'running', args: { file: 'auth/login.go', line: 42 } } }, seen))
      .toEqual({ kind: 'tool-call', toolCallId: 't1', title: 'file_edit auth/login.go', toolKind: 'edit', rawInput: { file: 'auth/login.go', line: 42 }, status: 'in_progress', locations: [{ path: 'auth/login.go' }] });
    expect(mapKandevUpdate({ type: 'toolCall', data: { toolCallId: 't1', toolName: 'file_edit', status: 'completed', result: 'ok' } }, seen))
      .toEqual({ kind: 'tool-call-update', toolCallId: 't1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'ok' } }] });
  });

  it('numbers tools that carry no id', () => {
    const seen = new Set<string>();
    expect(mapKandevUpdate({ type: 'toolCall', data: { toolName: 'run_command', args: { command: 'make' } } }, seen)).toMatchObject({ toolCallId: 'run_command-1', title: 'make', toolKind: 'execute' });
  });

  it('keeps unknown update types', () => {
    expect(mapKandevUpdate({ type: 'progress', data: { percent: 50 } }, new Set())).toEqual({ kind: 'other', name: 'progress', data: { type: 'progress', data: { percent: 50 } } });
  });
});
