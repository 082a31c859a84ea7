// What the task runner needs from a connected agent, whatever dialect it speaks.
import type { AgentUpdate } from '../../../shared/events';

export interface PermissionOption { optionId: string; name: string; kind: string }

/** An agent asking to be allowed to do something (ACP `session/request_permission`). */
export interface PermissionRequest {
  toolCall: { toolCallId?: string; title?: string; kind?: string };
  options: PermissionOption[];
}

export type PermissionOutcome = { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' };

/** The services the desk offers an agent while it works; each one decides inside the task's worktree. */
export interface ClientHandlers {
  requestPermission(request: PermissionRequest): Promise<PermissionOutcome>;
  readTextFile(request: { path: string; line?: number; limit?: number }): Promise<string>;
  writeTextFile(request: { path: string; content: string }): Promise<void>;
}

/** How a turn ended: the ACP stop reason (`end_turn`, `cancelled`, `refusal`, `max_tokens`, …). */
export interface TurnEnd { stopReason: string }

export interface AgentSession {
  readonly sessionId: string;
  /** Sends one turn and resolves when the agent ends it; rejects with the agent's error. */
  prompt(text: string): Promise<TurnEnd>;
  /** Asks the agent to stop the current turn; the pending `prompt` then resolves with `cancelled`. */
  cancel(): void;
}

export interface SessionCallbacks {
  onUpdate(update: AgentUpdate): void;
  handlers: ClientHandlers;
}

/** The agent answered in a way that makes the task impossible to run (wrong protocol, refused session…). */
export class AgentProtocolError extends Error {
  readonly code = 'agent_protocol';
}
