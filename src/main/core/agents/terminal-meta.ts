// Command output that an agent runs itself and reports in a tool call's `_meta` (the terminal extension Zed reads:
// `terminal_output_delta` / `terminal_output`, `terminal_exit`), as the desk's terminal events. Codex reports every
// command this way and never through ACP's terminal/* methods, so without this its output reaches no one. Pure.
import { isObject } from '../../../shared/is-object';
import type { TaskEvent } from '../../../shared/events';

export type TerminalMetaEvent = Extract<TaskEvent, { type: 'terminal-output' | 'terminal-exited' }>;

/**
 * The terminal events a `tool_call` / `tool_call_update` carries in its `_meta`, output before exit. The terminal
 * is the one its `content` names (`{type: "terminal", terminalId}`), so the board shows the output in the tool call.
 */
export function terminalMetaEvents(update: unknown): TerminalMetaEvent[] {
  if (!isObject(update) || (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') || !isObject(update._meta)) return [];
  const meta = update._meta;
  const fallbackId = typeof update.toolCallId === 'string' ? update.toolCallId : undefined;
  const events: TerminalMetaEvent[] = [];
  for (const key of ['terminal_output_delta', 'terminal_output']) {
    const output = meta[key];
    if (!isObject(output) || typeof output.data !== 'string' || output.data === '') continue;
    const terminalId = typeof output.terminal_id === 'string' ? output.terminal_id : fallbackId;
    if (terminalId !== undefined) events.push({ type: 'terminal-output', terminalId, data: output.data });
  }
  const exit = meta.terminal_exit;
  if (isObject(exit)) {
    const terminalId = typeof exit.terminal_id === 'string' ? exit.terminal_id : fallbackId;
    const exitCode = typeof exit.exit_code === 'number' && Number.isInteger(exit.exit_code) ? exit.exit_code : null;
    const signal = typeof exit.signal === 'string' ? exit.signal : null;
    if (terminalId !== undefined) events.push({ type: 'terminal-exited', terminalId, exitCode, signal });
  }
  return events;
}
