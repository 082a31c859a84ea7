// Output of commands an agent runs itself, reported in a tool call's `_meta`, becomes the desk's terminal events.
import { describe, expect, it } from 'vitest';
import { terminalMetaEvents } from './terminal-meta';

describe('terminalMetaEvents', () => {
  it('turns Codex\'s output delta and exit into output then exit of the tool call\'s terminal', () => {
    const update = {
      sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed',
      _meta: { terminal_output_delta: { data: 'hello\n', terminal_id: 'call_1' }, terminal_exit: { exit_code: 0, signal: null, terminal_id: 'call_1' } },
    };
    expect(terminalMetaEvents(update)).toEqual([
      { type: 'terminal-output', terminalId: 'call_1', data: 'hello\n' },
      { type: 'terminal-exited', terminalId: 'call_1', exitCode: 0, signal: null },
    ]);
  });

  it('reads Zed\'s terminal_output key too, and names the tool call when the meta names no terminal', () => {
    expect(terminalMetaEvents({ sessionUpdate: 'tool_call', toolCallId: 'call_2', _meta: { terminal_output: { data: 'x' } } }))
      .toEqual([{ type: 'terminal-output', terminalId: 'call_2', data: 'x' }]);
  });

  it('finds nothing in other updates, in a tool call without terminal meta, or in meta of the wrong shape', () => {
    expect(terminalMetaEvents({ sessionUpdate: 'agent_message_chunk', _meta: { terminal_output_delta: { data: 'x' } } })).toEqual([]);
    expect(terminalMetaEvents({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'completed' })).toEqual([]);
    expect(terminalMetaEvents({ sessionUpdate: 'tool_call_update', toolCallId: 'c', _meta: { terminal_output_delta: 'x', terminal_exit: 3 } })).toEqual([]);
  });
});
