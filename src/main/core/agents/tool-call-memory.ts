// What an agent said about each tool call (`tool_call`, `tool_call_update`), kept per toolCallId so that a permission
// request naming only the call (claude-code-acp sends `{toolCallId, title, rawInput}`) is judged by its kind and paths.
import { isObject } from '../../../shared/is-object';
import type { PermissionRequest } from './agent-session';

export type ToolCallFacts = PermissionRequest['toolCall'];

/** Tool calls remembered at most; the oldest is forgotten first (an agent that never ends its calls). */
const MAX_REMEMBERED = 500;

/**
 * The facts a raw `session/update` message gives about a tool call, read without trusting its shape, and whether
 * the call has ended (a permission request never follows then). Pure.
 */
export function toolCallNews(message: unknown): { toolCallId: string; facts: ToolCallFacts; ended: boolean } | undefined {
  if (!isObject(message) || message.method !== 'session/update' || 'id' in message || !isObject(message.params)) return undefined;
  const update = message.params.update;
  if (!isObject(update) || (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update')) return undefined;
  const { toolCallId, kind, title, locations, rawInput, status } = update;
  if (typeof toolCallId !== 'string') return undefined;
  const paths = Array.isArray(locations) ? locations.flatMap((l) => (isObject(l) && typeof l.path === 'string' ? [{ path: l.path }] : [])) : undefined;
  return {
    toolCallId,
    facts: {
      toolCallId,
      ...(typeof kind === 'string' && { kind }),
      ...(typeof title === 'string' && { title }),
      ...(paths && paths.length > 0 && { locations: paths }),
      ...(rawInput !== undefined && rawInput !== null && { rawInput }),
    },
    ended: status === 'completed' || status === 'failed',
  };
}

/** What is known of a call after news of it: each field the news carries replaces the earlier one. Pure. */
export function rememberToolCall(known: ToolCallFacts | undefined, news: ToolCallFacts): ToolCallFacts {
  return { ...known, ...news };
}

/**
 * The tool call a permission request is judged by: the request's own fields where it gives them, what the session
 * saw of the same call for the rest. Pure. A request for a call the session never saw is judged as it is.
 */
export function judgedToolCall(asked: ToolCallFacts, known: ToolCallFacts | undefined): ToolCallFacts {
  if (!known) return asked;
  const ownLocations = asked.locations !== undefined && asked.locations.length > 0;
  return {
    ...known,
    ...asked,
    ...(!ownLocations && known.locations && { locations: known.locations }),
    ...(asked.rawInput === undefined && known.rawInput !== undefined && { rawInput: known.rawInput }),
  };
}

export interface ToolCallMemory {
  /** Reads one incoming message; only tool call updates are kept. */
  see(message: unknown): void;
  /** The request's tool call completed with what the session saw of it (judgedToolCall). */
  judged(asked: ToolCallFacts): ToolCallFacts;
}

export function createToolCallMemory(limit = MAX_REMEMBERED): ToolCallMemory {
  const calls = new Map<string, ToolCallFacts>();
  return {
    see(message) {
      const news = toolCallNews(message);
      if (!news) return;
      const known = calls.get(news.toolCallId);
      calls.delete(news.toolCallId);
      if (news.ended) return;
      calls.set(news.toolCallId, rememberToolCall(known, news.facts));
      if (calls.size > limit) calls.delete(calls.keys().next().value as string);
    },
    judged(asked) {
      return judgedToolCall(asked, asked.toolCallId === undefined ? undefined : calls.get(asked.toolCallId));
    },
  };
}
