import { describe, expect, it } from 'vitest';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { mapAcpUpdate } from './acp-update-mapper';

describe('mapAcpUpdate', () => {
  it('maps message, thought and user chunks to messages with a role', () => {
    expect(mapAcpUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } })).toEqual({ kind: 'message', role: 'agent', text: 'hi' });
    expect(mapAcpUpdate({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hm' } })).toEqual({ kind: 'message', role: 'thought', text: 'hm' });
    expect(mapAcpUpdate({ sessionUpdate: 'user_message_chunk', content: { type: 'image', data: '', mimeType: 'image/png' } })).toEqual({ kind: 'message', role: 'user', text: '[image]' });
  });

  it('keeps a tool call\'s kind, status, locations and content', () => {
    const diff = { type: 'diff' as const, path: '/w/a.txt', oldText: null, newText: 'a' };
    expect(mapAcpUpdate({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Write a.txt', kind: 'edit', status: 'pending', locations: [{ path: '/w/a.txt', line: 3 }], content: [diff] }))
      .toEqual({ kind: 'tool-call', toolCallId: 't1', title: 'Write a.txt', toolKind: 'edit', status: 'pending', locations: [{ path: '/w/a.txt', line: 3 }], content: [diff] });
  });

  it('maps a tool call update carrying only what changed', () => {
    expect(mapAcpUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' })).toEqual({ kind: 'tool-call-update', toolCallId: 't1', status: 'completed' });
  });

  it('maps a plan to its entries', () => {
    expect(mapAcpUpdate({ sessionUpdate: 'plan', entries: [{ content: 'A', priority: 'high', status: 'pending' }] }))
      .toEqual({ kind: 'plan', entries: [{ content: 'A', priority: 'high', status: 'pending' }] });
  });

  it('keeps variants it does not know as they were sent', () => {
    const update: SessionUpdate = { sessionUpdate: 'usage_update', used: 5, size: 100 };
    expect(mapAcpUpdate(update)).toEqual({ kind: 'other', name: 'usage_update', data: update });
  });
});
