import { describe, expect, it } from 'vitest';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { mapAcpUpdate, turnTokensOf } from './acp-update-mapper';

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
    const update: SessionUpdate = { sessionUpdate: 'current_mode_update', currentModeId: 'plan' };
    expect(mapAcpUpdate(update)).toEqual({ kind: 'other', name: 'current_mode_update', data: update });
  });

  it("maps a usage update to the tokens in the agent's context, its window and the cost so far", () => {
    expect(mapAcpUpdate({ sessionUpdate: 'usage_update', used: 5200, size: 200000, cost: { amount: 0.0123, currency: 'USD' } }))
      .toEqual({ kind: 'usage', used: 5200, size: 200000, cost: { amount: 0.0123, currency: 'USD' } });
    expect(mapAcpUpdate({ sessionUpdate: 'usage_update', used: 5, size: 100, cost: null })).toEqual({ kind: 'usage', used: 5, size: 100 });
  });

  it('keeps a usage update whose counts are not whole numbers as it was sent', () => {
    const update = { sessionUpdate: 'usage_update', used: -1, size: 1.5 } as SessionUpdate;
    expect(mapAcpUpdate(update)).toEqual({ kind: 'other', name: 'usage_update', data: update });
  });
});

describe('turnTokensOf', () => {
  it("reads a turn's tokens from the prompt answer's usage, with the optional kinds the agent counts", () => {
    expect(turnTokensOf({ inputTokens: 1000, outputTokens: 200, totalTokens: 1500, cachedReadTokens: 300, thoughtTokens: null }))
      .toEqual({ inputTokens: 1000, outputTokens: 200, totalTokens: 1500, cachedReadTokens: 300 });
  });

  it('reads nothing from an answer without usage or with counts that are not numbers', () => {
    expect(turnTokensOf(undefined)).toBeUndefined();
    expect(turnTokensOf({ inputTokens: '1000', outputTokens: 2, totalTokens: 3 })).toBeUndefined();
  });
});
