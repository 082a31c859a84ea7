// The Kandev dialect's sink: script progress as Kandev `session/update` notifications ({sessionId, type, data}).
// Kandev has no client file system or terminal, so files live on disk and commands run as our own child.
import { newId } from './ids';
import { diskTextFiles } from './disk-files';
import type { JsonRpcPeer } from '../shared/json-rpc-peer';
import type { ScriptSink, ScriptTool, ToolCallEnd, ToolCallStart } from './script-sink';
import { runShellChild } from './shell-child';
import { elicitationRequest, permissionRequest, readElicitationOutcome, readPermissionOutcome } from './user-input';

export type KandevUpdateType = 'content' | 'plan' | 'toolCall' | 'complete' | 'error';

const TOOL_NAMES: Record<ScriptTool, string> = {
  write: 'write_file',
  append: 'append_file',
  delete: 'delete_file',
  move: 'move_file',
  read: 'read_file',
  run: 'run_command',
};

/** Sends one Kandev update for a session. */
export function sendKandevUpdate(rpc: JsonRpcPeer, sessionId: string, type: KandevUpdateType, data: object): Promise<void> {
  return rpc.notify('session/update', { sessionId, type, data });
}

export function createKandevSink(rpc: JsonRpcPeer, sessionId: string, cwd: string): ScriptSink {
  const update = (type: KandevUpdateType, data: object): Promise<void> => sendKandevUpdate(rpc, sessionId, type, data);
  return {
    message: (text) => update('content', { text }),
    thought: (text) => update('content', { text, thought: true }),
    // The Kandev dialect has no usage report.
    usage: () => Promise.resolve(),
    plan: (entries) =>
      update('plan', { entries: entries.map((content) => ({ content, priority: 'medium', status: 'pending' })) }),
    toolStarted: (call) => update('toolCall', toolCallData(call, 'running')),
    toolFinished: (call, end) => update('toolCall', { ...toolCallData(call, end.status), ...resultOf(end) }),
    files: diskTextFiles(),
    runCommand: (call, signal) => runShellChild(call.command ?? '', cwd, signal),
    // Kandev's protocol text has no way to wait for the user; we reuse ACP's request shapes as a documented extension.
    async askPermission(ask, signal) {
      const response = await rpc.request('session/request_permission', permissionRequest(sessionId, newId(), ask), signal);
      return readPermissionOutcome(response);
    },
    async elicit(text, signal) {
      return readElicitationOutcome(await rpc.request('elicitation/create', elicitationRequest(sessionId, text), signal));
    },
  };
}

function toolCallData(call: ToolCallStart, status: string): object {
  return {
    toolCallId: call.id,
    toolName: TOOL_NAMES[call.tool],
    status,
    args: call.command === undefined
      ? { path: call.scriptPath, ...(call.destinationPath !== undefined && { destination: call.destinationPath }) }
      : { command: call.command },
  };
}

/** `result` is what the tool produced (text read, command output); `error` says why it failed. */
function resultOf(end: ToolCallEnd): object {
  return {
    ...(end.output === undefined ? {} : { result: end.output }),
    ...(end.status === 'failed' && end.reason !== undefined ? { error: end.reason } : {}),
  };
}
