// Turns a standard ACP `session/update` (the SDK's typed SessionUpdate), and the usage a turn's answer reports, into
// the desk's AgentUpdate. Pure; variants the desk does not model are kept as `other`.
import type { ContentBlock, SessionUpdate, ToolCallLocation } from '@agentclientprotocol/sdk';
import type { AgentUpdate, TurnTokens } from '../../../shared/events';
import { isObject } from '../../../shared/is-object';

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
    case 'usage_update':
      return usageOf(update);
    case 'notice':
      // A notice is meant for the person: it is shown as text.
      return { kind: 'other', name: update.sessionUpdate, data: update, text: [update.title, update.description].filter(Boolean).join(': ') };
    default:
      return { kind: 'other', name: update.sessionUpdate, data: update };
  }
}

/** Counts an agent sends are numbers of its own making: one that is not a whole, non-negative count is kept as sent. */
function usageOf(update: Extract<SessionUpdate, { sessionUpdate: 'usage_update' }>): AgentUpdate {
  const { used, size, cost } = update;
  if (!isCount(used) || !isCount(size)) return { kind: 'other', name: update.sessionUpdate, data: update };
  const known = cost && typeof cost.amount === 'number' && Number.isFinite(cost.amount) && typeof cost.currency === 'string';
  return { kind: 'usage', used, size, ...(known && { cost: { amount: cost.amount, currency: cost.currency } }) };
}

/** The tokens of a turn from a `session/prompt` answer's `usage` (unstable in ACP), or nothing when it is not there or not counts. */
export function turnTokensOf(usage: unknown): TurnTokens | undefined {
  if (!isObject(usage)) return undefined;
  const { inputTokens, outputTokens, totalTokens } = usage;
  if (!isCount(inputTokens) || !isCount(outputTokens) || !isCount(totalTokens)) return undefined;
  const optional = (['thoughtTokens', 'cachedReadTokens', 'cachedWriteTokens'] as const).filter((key) => isCount(usage[key]));
  return { inputTokens, outputTokens, totalTokens, ...Object.fromEntries(optional.map((key) => [key, usage[key]])) };
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

function toLocation(location: ToolCallLocation): { path: string; line?: number } {
  return { path: location.path, ...(typeof location.line === 'number' && { line: location.line }) };
}
