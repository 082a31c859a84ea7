// Which tool calls an agent has announced, so that a permission request about a call it never announced (qwen-code
// asks before it says anything about the call) still shows the call in the task's activity, as ACP editors show it.
import type { RequestPermissionRequest, SessionUpdate } from '@agentclientprotocol/sdk';
import type { AgentUpdate } from '../../../shared/events';
import { mapAcpUpdate } from './acp-update-mapper';

/** Calls remembered at most; the oldest is forgotten first (an agent that never ends its calls). */
const MAX_REMEMBERED = 500;

export interface AnnouncedToolCalls {
  /** Reads one session update; tool calls are remembered until they end. */
  saw(update: SessionUpdate): void;
  /** The `tool-call` to record for a permission request's call, the first time the desk hears of the call; else undefined. */
  announce(toolCall: RequestPermissionRequest['toolCall']): AgentUpdate | undefined;
}

export function createAnnouncedToolCalls(limit = MAX_REMEMBERED): AnnouncedToolCalls {
  const known = new Set<string>();
  const remember = (id: string) => {
    known.add(id);
    if (known.size > limit) known.delete(known.values().next().value as string);
  };
  return {
    saw(update) {
      if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
      remember(update.toolCallId);
    },
    announce(toolCall) {
      if (known.has(toolCall.toolCallId)) return undefined;
      remember(toolCall.toolCallId);
      return toolCallStarted(toolCall);
    },
  };
}

/** A permission request's tool call (an ACP ToolCallUpdate) as the desk's `tool-call` update. Pure. */
export function toolCallStarted(toolCall: RequestPermissionRequest['toolCall']): AgentUpdate {
  const mapped = mapAcpUpdate({ ...toolCall, sessionUpdate: 'tool_call_update' });
  return mapped.kind === 'tool-call-update' ? { ...mapped, kind: 'tool-call', status: mapped.status ?? 'pending' } : mapped;
}
