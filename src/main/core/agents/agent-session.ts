// What the task runner needs from a connected agent, whatever dialect it speaks.
import type { AgentImplementation } from '../../../shared/agents';
import type { AgentUpdate, TurnTokens } from '../../../shared/events';
import { deskError, type DeskError } from '../../../shared/desk-error';
import { isObject } from '../../../shared/is-object';
import type { OfferedMethod } from './agent-auth';
import type { TerminalMetaEvent } from './terminal-meta';

export interface PermissionOption { optionId: string; name: string; kind: string }

/** An agent asking to be allowed to do something (ACP `session/request_permission`). */
export interface PermissionRequest {
  toolCall: { toolCallId?: string; title?: string; kind?: string; locations?: { path: string }[]; rawInput?: unknown };
  options: PermissionOption[];
}

export type PermissionOutcome = { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' };

/** An agent asking the person a question with a form (ACP `elicitation/create`). */
export interface ElicitationRequest {
  message: string;
  mode: string;
  requestedSchema?: unknown;
  url?: string;
}

export type ElicitationResponse =
  | { action: 'accept'; content: Record<string, unknown> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** The terminal calls an agent may make (ACP `terminal/*`), served in the task's worktree. */
export interface TerminalHandlers {
  create(params: { command: string; args?: string[]; env?: { name: string; value: string }[]; cwd?: string | null; outputByteLimit?: number | null }): Promise<{ terminalId: string }>;
  output(terminalId: string): { output: string; truncated: boolean; exitStatus: { exitCode: number | null; signal: string | null } | null };
  waitForExit(terminalId: string): Promise<{ exitCode: number | null; signal: string | null }>;
  kill(terminalId: string): void;
  release(terminalId: string): void;
}

/** The services the desk offers an agent while it works; each one decides inside the task's worktree. */
export interface ClientHandlers {
  requestPermission(request: PermissionRequest): Promise<PermissionOutcome>;
  elicit(request: ElicitationRequest): Promise<ElicitationResponse>;
  readTextFile(request: { path: string; line?: number; limit?: number }): Promise<string>;
  writeTextFile(request: { path: string; content: string }): Promise<void>;
  terminals: TerminalHandlers;
}

/** How a turn ended: the ACP stop reason (`end_turn`, `cancelled`, `refusal`, `max_tokens`, …), and its tokens where the agent counts them. */
export interface TurnEnd { stopReason: string; usage?: TurnTokens }

/** What the agent said it can do, as far as the desk cares. */
export interface SessionFeatures {
  /** Can continue an earlier session in a new process (`session/load` or `session/resume`). */
  canContinue: boolean;
  /** Who the agent says it is (`agentInfo` of its initialize answer), when it says. */
  agent?: AgentImplementation;
  modes?: unknown;
  configOptions?: unknown;
}

export interface AgentSession {
  readonly sessionId: string;
  readonly dialect: 'acp' | 'kandev';
  readonly features: SessionFeatures;
  /** Sends one turn and resolves when the agent ends it; rejects with the agent's error. */
  prompt(text: string): Promise<TurnEnd>;
  /** Asks the agent to stop the current turn; the pending `prompt` then resolves with `cancelled`. */
  cancel(): void;
  setMode(modeId: string): Promise<void>;
  setConfigOption(configId: string, value: string | boolean): Promise<void>;
}

export interface SessionCallbacks {
  onUpdate(update: AgentUpdate): void;
  /** The agent answered `initialize` (before the session is asked for): a stage of the run's timing. */
  onInitialized?(): void;
  /** Output of a command the agent ran itself, from a tool call's `_meta` (see terminal-meta.ts). */
  onTerminal?(event: TerminalMetaEvent): void;
  handlers: ClientHandlers;
}

/** The agent answered in a way that makes the task impossible to run (wrong protocol, refused session…). */
export function agentProtocolError(message: string): DeskError {
  return deskError('conflict', 'agent_protocol', message);
}

/**
 * The agent wants a login; `details.methods` lists the ones it offers and `details.agentMessage` is its own word.
 * The task runner turns both into the actions that work for the agent (agent-auth.ts `loginHelp`).
 */
export function agentLoginRequired(agentMessage: string, methods: OfferedMethod[], agent?: AgentImplementation): DeskError {
  const names = methods.map((m) => `"${m.name}"`).join(', ');
  return deskError('unavailable', 'agent_login_required', `The agent needs a login${names ? ` (${names})` : ''}: ${agentMessage}`, { methods, agentMessage, ...(agent && { agent }) });
}

/** `agentInfo` of an initialize answer, read without trusting its shape: `{ agent }` or nothing. */
export function agentImplementation(raw: unknown): { agent?: AgentImplementation } {
  if (!isObject(raw) || typeof raw.name !== 'string' || typeof raw.version !== 'string') return {};
  return { agent: { name: raw.name, version: raw.version, ...(typeof raw.title === 'string' && raw.title !== '' && { title: raw.title }) } };
}
