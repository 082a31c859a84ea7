// The questions a script can put to the user, built and read the same way in both dialects: permission for
// `ask` or for a tool call about to happen (delete, move, a command run after asking), and forms.
import type { CreateElicitationRequest, RequestPermissionRequest, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import { fieldOf } from './json-field';
import type { ElicitationOutcome, PermissionAsk, PermissionOutcome, ScriptTool, ToolCallStart } from './script-sink';
import { shellInvocation } from './shell-child';

const ALLOW = 'allow';
const ALLOW_ALWAYS = 'allow_always';
const REJECT = 'reject';

/** The ACP tool kind of each script tool. */
export const ACP_TOOL_KINDS: Record<ScriptTool, ToolKind> = { write: 'edit', append: 'edit', delete: 'delete', move: 'move', read: 'read', run: 'execute' };

/** The files a tool call touches, as ACP locations: the path, and for a move also where it goes. */
export function toolLocations(call: ToolCallStart): ToolCallLocation[] {
  return [call.absolutePath, call.absoluteDestination].filter((path) => path !== undefined).map((path) => ({ path }));
}

/**
 * `session/request_permission` params: allow once or reject once (and, when `offerAlways`, allow always first, as
 * Claude Code offers it). For `ask` the tool call is only the question (kind `other`); for a tool it is the tool call
 * already announced, with its kind and paths.
 */
export function permissionRequest(sessionId: string, toolCallId: string, ask: PermissionAsk): RequestPermissionRequest {
  const toolCall = 'question' in ask
    ? { toolCallId, title: ask.question, kind: 'other' as const, status: 'pending' as const }
    // An announced write is named by its id alone: its kind, path and text are in the tool call before.
    : ask.call.proposedText !== undefined ? { toolCallId: ask.call.id }
    : { toolCallId: ask.call.id, title: ask.call.title, kind: ACP_TOOL_KINDS[ask.call.tool], status: 'pending' as const, locations: toolLocations(ask.call), rawInput: permissionInput(ask.call) };
  return {
    sessionId,
    toolCall,
    options: [
      ...(ask.offerAlways === true ? [{ optionId: ALLOW_ALWAYS, name: 'Always allow', kind: 'allow_always' as const }] : []),
      { optionId: ALLOW, name: 'Allow', kind: 'allow_once' },
      { optionId: REJECT, name: 'Reject', kind: 'reject_once' },
    ],
  };
}

function permissionInput(call: ToolCallStart): Record<string, unknown> {
  // The program and arguments exactly as they will be started (`terminal/create` or our own child), so the
  // client can tell that the terminal it is asked for next is the command it allowed.
  if (call.command !== undefined) return shellInvocation(call.command);
  return { path: call.scriptPath, ...(call.destinationPath !== undefined && { destination: call.destinationPath }) };
}

/** Reads a permission answer; an option we did not offer counts as a rejection (fail closed). */
export function readPermissionOutcome(response: unknown): PermissionOutcome {
  const outcome = fieldOf(response, 'outcome');
  if (fieldOf(outcome, 'outcome') === 'cancelled') return 'cancelled';
  if (fieldOf(outcome, 'outcome') === 'selected' && fieldOf(outcome, 'optionId') === ALLOW) return 'allow';
  if (fieldOf(outcome, 'outcome') === 'selected' && fieldOf(outcome, 'optionId') === ALLOW_ALWAYS) return 'allow-always';
  return 'reject';
}

/**
 * `elicitation/create` params for `question TEXT`, in the form mode of ACP v1's elicitation schema
 * (present in SDK 2.4.0's stable types):
 *   { sessionId, mode: 'form', message: TEXT,
 *     requestedSchema: { type: 'object', properties: { answer: { type: 'string', title: TEXT } }, required: ['answer'] } }
 * The client answers { action: 'accept', content: { answer } } or { action: 'decline' | 'cancel' }.
 */
export function elicitationRequest(sessionId: string, text: string): CreateElicitationRequest {
  return {
    sessionId,
    mode: 'form',
    message: text,
    requestedSchema: {
      type: 'object',
      properties: { answer: { type: 'string', title: text } },
      required: ['answer'],
    },
  };
}

export function readElicitationOutcome(response: unknown): ElicitationOutcome {
  const action = fieldOf(response, 'action');
  if (typeof action !== 'string') throw new Error('The client answered the question without an action');
  if (action !== 'accept') return { action };
  const answer = fieldOf(fieldOf(response, 'content'), 'answer');
  return { action, answer: answer === undefined || answer === null ? '' : String(answer) };
}
