// A permission request judged by the tool call it is about: what the session's updates said, under the request's own words.
import { describe, expect, it } from 'vitest';
import { permissionFacts } from '../tasks/permission-facts';
import { createToolCallMemory, judgedToolCall } from './tool-call-memory';

const update = (update: object) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update } });
const options = [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }];

/** claude-code-acp's order: the tool call with its kind, paths and input, then a request naming only its id and title. */
function claudeWrite(memory = createToolCallMemory()) {
  memory.see(update({ sessionUpdate: 'tool_call', toolCallId: 'toolu_1', title: 'Write', kind: 'edit', status: 'pending', rawInput: {} }));
  memory.see(update({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_1', title: 'Write /w/hello.txt', locations: [{ path: '/w/hello.txt' }], rawInput: { file_path: '/w/hello.txt', content: 'hi' } }));
  return memory;
}

describe('judging a permission request by its tool call', () => {
  it('takes the kind and paths from the tool call the request names', () => {
    const judged = claudeWrite().judged({ toolCallId: 'toolu_1', title: 'Write /w/hello.txt' });
    expect(permissionFacts({ toolCall: judged, options })).toEqual({ kind: 'edit', title: 'Write /w/hello.txt', paths: ['/w/hello.txt'] });
  });

  it('takes a command from the tool call, so an execute request is judged by the command it runs', () => {
    const memory = createToolCallMemory();
    memory.see(update({ sessionUpdate: 'tool_call', toolCallId: 'toolu_2', title: 'Run tests', kind: 'execute', rawInput: { command: 'npm test' } }));
    expect(permissionFacts({ toolCall: memory.judged({ toolCallId: 'toolu_2', title: 'Run tests' }), options })).toMatchObject({ kind: 'execute', command: 'npm test' });
  });

  it('keeps the request\'s own kind over a milder one the tool call claimed', () => {
    const memory = createToolCallMemory();
    memory.see(update({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Look around', kind: 'read', locations: [{ path: '/w/README.md' }] }));
    const judged = memory.judged({ toolCallId: 't', kind: 'edit', title: 'Write /etc/passwd', locations: [{ path: '/etc/passwd' }] });
    expect(permissionFacts({ toolCall: judged, options })).toMatchObject({ kind: 'edit', paths: ['/etc/passwd'] });
  });

  it('keeps the tool call\'s paths when the request sends an empty list, so a path outside cannot be hidden', () => {
    const memory = createToolCallMemory();
    memory.see(update({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Write', kind: 'edit', locations: [{ path: '/etc/cron.d/x' }] }));
    expect(memory.judged({ toolCallId: 't', title: 'Write', locations: [] }).locations).toEqual([{ path: '/etc/cron.d/x' }]);
  });

  it('judges a request for a tool call it never saw as the request says', () => {
    expect(claudeWrite().judged({ toolCallId: 'toolu_9', title: 'Something' })).toEqual({ toolCallId: 'toolu_9', title: 'Something' });
  });

  it('forgets a tool call once it has ended', () => {
    const memory = claudeWrite();
    memory.see(update({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_1', status: 'completed' }));
    expect(memory.judged({ toolCallId: 'toolu_1', title: 'Write' })).toEqual({ toolCallId: 'toolu_1', title: 'Write' });
  });

  it('forgets the oldest tool call past its limit', () => {
    const memory = createToolCallMemory(2);
    for (const id of ['a', 'b', 'c']) memory.see(update({ sessionUpdate: 'tool_call', toolCallId: id, title: id, kind: 'edit' }));
    expect(memory.judged({ toolCallId: 'a' }).kind).toBeUndefined();
    expect(memory.judged({ toolCallId: 'c' }).kind).toBe('edit');
  });

  it('ignores updates that are not about tool calls and messages of the wrong shape', () => {
    const memory = createToolCallMemory();
    memory.see(update({ sessionUpdate: 'agent_message_chunk', toolCallId: 'x', kind: 'edit' }));
    memory.see({ jsonrpc: '2.0', id: 3, method: 'session/update', params: { update: { sessionUpdate: 'tool_call', toolCallId: 'x', kind: 'edit' } } });
    memory.see('not an object');
    expect(memory.judged({ toolCallId: 'x' })).toEqual({ toolCallId: 'x' });
  });

  it('keeps raw input from the tool call when the request has none', () => {
    expect(judgedToolCall({ toolCallId: 't' }, { toolCallId: 't', rawInput: { command: 'ls' } }).rawInput).toEqual({ command: 'ls' });
  });
});
