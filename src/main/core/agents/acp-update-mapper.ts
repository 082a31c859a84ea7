// Turns a standard ACP `session/update` payload into the desk's AgentUpdate. Pure; unknown variants are kept as `other`.
import type { AgentUpdate } from '../../../shared/events';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Text of an ACP content block; non-text blocks are shown by their type so nothing silently vanishes. */
export function contentText(block: unknown): string {
  if (!isObject(block)) return '';
  if (block.type === 'text') return str(block.text) ?? '';
  if (block.type === 'resource_link') return `[${str(block.name) ?? str(block.uri) ?? 'resource'}]`;
  return `[${str(block.type) ?? 'content'}]`;
}

/** ACP's optional message id: chunks of one message share it, and the store ends a run where it changes. */
function messageIdOf(update: Json): { messageId?: string } {
  const id = str(update.messageId);
  return id === undefined ? {} : { messageId: id };
}

export function mapAcpUpdate(update: unknown): AgentUpdate | undefined {
  if (!isObject(update)) return undefined;
  const name = str(update.sessionUpdate);
  switch (name) {
    case 'agent_message_chunk':
      return { kind: 'message', role: 'agent', text: contentText(update.content), ...messageIdOf(update) };
    case 'agent_thought_chunk':
      return { kind: 'message', role: 'thought', text: contentText(update.content), ...messageIdOf(update) };
    case 'user_message_chunk':
      return { kind: 'message', role: 'user', text: contentText(update.content), ...messageIdOf(update) };
    case 'tool_call':
    case 'tool_call_update': {
      const toolCallId = str(update.toolCallId);
      if (!toolCallId) return { kind: 'other', name, data: update };
      return {
        kind: name === 'tool_call' ? 'tool-call' : 'tool-call-update',
        toolCallId,
        ...(str(update.title) !== undefined && { title: str(update.title) }),
        ...(str(update.kind) !== undefined && { toolKind: str(update.kind) }),
        ...(isToolStatus(update.status) && { status: update.status }),
        ...(Array.isArray(update.locations) && { locations: update.locations.filter(isObject).map(toLocation) }),
        ...(Array.isArray(update.content) && { content: update.content }),
        ...(update.rawInput !== undefined && { rawInput: update.rawInput }),
        ...(update.rawOutput !== undefined && { rawOutput: update.rawOutput }),
      };
    }
    case 'plan':
      return {
        kind: 'plan',
        entries: (Array.isArray(update.entries) ? update.entries : []).filter(isObject).map((entry) => ({
          content: str(entry.content) ?? '',
          ...(str(entry.priority) !== undefined && { priority: str(entry.priority) }),
          ...(str(entry.status) !== undefined && { status: str(entry.status) }),
        })),
      };
    default:
      return { kind: 'other', name: name ?? 'unknown', data: update };
  }
}

function isToolStatus(value: unknown): value is 'pending' | 'in_progress' | 'completed' | 'failed' {
  return value === 'pending' || value === 'in_progress' || value === 'completed' || value === 'failed';
}

function toLocation(location: Json): { path: string; line?: number } {
  const line = typeof location.line === 'number' && Number.isInteger(location.line) ? location.line : undefined;
  return { path: str(location.path) ?? '', ...(line !== undefined && { line }) };
}
