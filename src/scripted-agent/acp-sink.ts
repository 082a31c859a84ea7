// The standard (ACP v1) dialect's sink: script progress as `session/update`s, and files and commands through
// the client when it offered them at initialize (fs/*, terminal/*), on disk and in our own child otherwise.
import { newId } from './ids';
import type { ClientCapabilities, ContentBlock, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import { JsonRpcError } from '../shared/json-rpc-peer';
import type { AcpClient, RequestOptions } from './acp-agent-connection';
import { diskTextFiles } from './disk-files';
import type { CommandOutcome, ScriptSink, TextFiles, ToolCallEnd, ToolCallStart } from './script-sink';
import { runShellChild, shellInvocation } from './shell-child';
import { reasonOf } from './turn-cancellation';
import { ACP_TOOL_KINDS, elicitationRequest, permissionRequest, readElicitationOutcome, readPermissionOutcome, toolLocations } from './user-input';

export interface AcpSinkOptions {
  client: AcpClient;
  sessionId: string;
  cwd: string;
  capabilities: ClientCapabilities;
  /** The turn's signal: client requests still waiting when it aborts are given up. */
  signal: AbortSignal;
}

const RESOURCE_NOT_FOUND = -32002;
const CONTEXT_WINDOW = 200_000;
const METHOD_NOT_FOUND = -32601;

export function createAcpSink(options: AcpSinkOptions): ScriptSink {
  const { client, sessionId, cwd, capabilities, signal } = options;
  const requestOptions: RequestOptions = { cancellationSignal: signal, stopWaitingOnCancel: true };
  const update = (sessionUpdate: SessionUpdate): Promise<void> =>
    client.notify('session/update', { sessionId, update: sessionUpdate });

  return {
    message: (text, messageId) => update({ sessionUpdate: 'agent_message_chunk', content: textBlock(text), ...(messageId !== undefined && { messageId }) }),
    thought: (text) => update({ sessionUpdate: 'agent_thought_chunk', content: textBlock(text) }),
    plan: (entries) =>
      update({
        sessionUpdate: 'plan',
        entries: entries.map((content) => ({ content, priority: 'medium', status: 'pending' })),
      }),
    // The context a stand-in model call leaves: what the turn sent and got so far, in a window of a common size.
    usage: (turn) => update({ sessionUpdate: 'usage_update', used: turn.input + turn.output, size: CONTEXT_WINDOW }),
    toolStarted: (call) =>
      update({
        sessionUpdate: 'tool_call',
        toolCallId: call.id,
        title: call.title,
        kind: ACP_TOOL_KINDS[call.tool],
        status: 'pending',
        locations: toolLocations(call),
        rawInput: rawInputOf(call),
      }),
    toolFinished: (call, end) =>
      update({ sessionUpdate: 'tool_call_update', toolCallId: call.id, status: end.status, content: contentOf(end) }),
    files: clientOrDiskFiles(options, requestOptions),
    runCommand: (call, turnSignal) =>
      capabilities.terminal === true
        ? runInClientTerminal(call, options, requestOptions, update)
        : runShellChild(call.command ?? '', cwd, turnSignal),
    async askPermission(ask) {
      const request = permissionRequest(sessionId, newId(), ask);
      return readPermissionOutcome(await client.request('session/request_permission', request, requestOptions));
    },
    async elicit(text) {
      const request = elicitationRequest(sessionId, text);
      return readElicitationOutcome(await client.request('elicitation/create', request, requestOptions));
    },
  };
}

function rawInputOf(call: ToolCallStart): Record<string, unknown> {
  if (call.proposedText !== undefined) return { file_path: call.absolutePath, content: call.proposedText };
  if (call.command !== undefined) return { command: call.command };
  return { path: call.scriptPath, ...(call.destinationPath !== undefined && { destination: call.destinationPath }) };
}

function textBlock(text: string): ContentBlock {
  return { type: 'text', text };
}

function contentOf(end: ToolCallEnd): ToolCallContent[] {
  const content: ToolCallContent[] = [];
  if (end.diff) content.push({ type: 'diff', ...end.diff });
  // A client terminal already shows the command's output; repeating it would double it on screen.
  if (end.terminalId !== undefined) content.push({ type: 'terminal', terminalId: end.terminalId });
  else if (end.output !== undefined) content.push({ type: 'content', content: textBlock(end.output) });
  if (end.status === 'failed' && end.reason !== undefined) content.push({ type: 'content', content: textBlock(end.reason) });
  return content;
}

// Each direction is chosen on its own: a client may offer reads but not writes, or the other way round.
function clientOrDiskFiles(options: AcpSinkOptions, requestOptions: RequestOptions): TextFiles {
  const { client, sessionId, capabilities } = options;
  const disk = diskTextFiles();
  return {
    read: capabilities.fs?.readTextFile === true
      ? (path) =>
          client.request('fs/read_text_file', { sessionId, path }, requestOptions).then(
            (response) => response.content,
            (error: unknown) => {
              if (isMissingFile(error)) return null;
              throw error;
            },
          )
      : disk.read,
    write: capabilities.fs?.writeTextFile === true
      ? async (path, content) => {
          await client.request('fs/write_text_file', { sessionId, path, content }, requestOptions);
        }
      : disk.write,
  };
}

// ACP has a "resource not found" code, but clients also report a missing file in their own words.
function isMissingFile(error: unknown): boolean {
  if (error instanceof JsonRpcError) {
    if (error.code === RESOURCE_NOT_FOUND) return true;
    if (error.code === METHOD_NOT_FOUND) return false;
  }
  return /ENOENT|no such file|not found|does not exist/i.test(reasonOf(error));
}

async function runInClientTerminal(
  call: ToolCallStart,
  options: AcpSinkOptions,
  requestOptions: RequestOptions,
  update: (sessionUpdate: SessionUpdate) => Promise<void>,
): Promise<CommandOutcome> {
  const { client, sessionId, cwd, signal } = options;
  const shell = shellInvocation(call.command ?? '');
  const { terminalId } = await client.request(
    'terminal/create',
    { sessionId, command: shell.command, args: shell.args, cwd },
    requestOptions,
  );
  try {
    await update({
      sessionUpdate: 'tool_call_update',
      toolCallId: call.id,
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId }],
    });
    const exit = await client.request('terminal/wait_for_exit', { sessionId, terminalId }, requestOptions);
    const { output } = await client.request('terminal/output', { sessionId, terminalId }, requestOptions);
    return { output, exitCode: exit.exitCode ?? null, terminalId };
  } finally {
    // Release also kills a command still running after a cancel; a cancelled turn does not wait for the answer.
    const released = client.request('terminal/release', { sessionId, terminalId }).then(
      () => {},
      () => {},
    );
    if (!signal.aborted) await released;
  }
}
