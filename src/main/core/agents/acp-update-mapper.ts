// Turns a standard ACP `session/update` (the SDK's typed SessionUpdate) into the desk's AgentUpdate. Pure;
// variants the desk does not model are kept as `other`.
import type { ContentBlock, SessionUpdate, ToolCallLocation } from '@agentclientprotocol/sdk';
import type { AgentUpdate } from '../../../shared/events';

/** Text of an ACP content block; non-text blocks are shown by their type so nothing silently vanishes. */
export function contentText(block: ContentBlock): string {
  if (block.type === 'text') return block.text;
  if (block.type === 'resource_link') return `[${block.name || block.uri || 'resource'}]`;
  return `[${block.type}]`;
}

/** ACP's optional message id: chunks of one message share it, and the store ends a run where it changes. */
const messageIdOf = (messageId: string | null | undefined): { messageId?: string } => (typeof messageId === 'string' ? { messageId } : {});

const ROLES = { agent_message_chunk: 'agent', agent_thought_chunk: 'thought', user_message_chunk: 'user' } as const;

export function mapAcpUpdate(update: SessionUpdate): AgentUpdate {
  switch (update.sessionUpdate) {
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
    case 'user_message_chunk':
      return { kind: 'message', role: ROLES[update.sessionUpdate], text: contentText(update.content), ...messageIdOf(update.messageId) };
    case 'tool_call':
    case 'tool_call_update':
      return {
        kind: update.sessionUpdate === 'tool_call' ? 'tool-call' : 'tool-call-update',
        toolCallId: update.toolCallId,
        ...(typeof update.title === 'string' && { title: update.title }),
        ...(typeof update.kind === 'string' && { toolKind: update.kind }),
        ...(typeof update.status === 'string' && { status: update.status }),
        ...(Array.isArray(update.locations) && { locations: update.locations.map(toLocation) }),
        ...(Array.isArray(update.content) && { content: update.content }),
        ...(update.rawInput !== undefined && { rawInput: update.rawInput }),
        ...(update.rawOutput !== undefined && { rawOutput: update.rawOutput }),
      };
    case 'plan':
      return {
        kind: 'plan',
        entries: update.entries.map((entry) => ({ content: entry.content, priority: entry.priority, status: entry.status })),
      };
    case 'notice':
      // A notice is meant for the person: it is shown as text.
      return { kind: 'other', name: update.sessionUpdate, data: update, text: [update.title, update.description].filter(Boolean).join(': ') };
    default:
      return { kind: 'other', name: update.sessionUpdate, data: update };
  }
}

function toLocation(location: ToolCallLocation): { path: string; line?: number } {
  return { path: location.path, ...(typeof location.line === 'number' && { line: location.line }) };
}
