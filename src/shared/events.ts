// The one event union that flows from agents to the store, the events socket and the renderer.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { LoginHelp } from './agents';
import { OpenQuestion, QuestionAnswer } from './questions';
import { TaskSummary } from './task';

export const ToolCallStatus = lazySchema(() => z.enum(['pending', 'in_progress', 'completed', 'failed']));
export type ToolCallStatus = z.infer<typeof ToolCallStatus>;

export const ToolCallLocation = lazySchema(() => z.object({ path: z.string(), line: z.number().int().optional() }));

/** Fields a tool call and its updates share; updates carry only what changed. Made inside the schemas that use them. */
const toolCallFields = () => ({
  toolCallId: z.string(),
  title: z.string().optional(),
  /** ACP tool kind: read, edit, delete, move, search, execute, think, fetch, other. */
  toolKind: z.string().optional(),
  status: ToolCallStatus.optional(),
  locations: z.array(ToolCallLocation).optional(),
  /** ACP tool call content blocks (text, diff, terminal), kept as the agent sent them. */
  content: z.array(z.unknown()).optional(),
  rawInput: z.unknown().optional(),
  rawOutput: z.unknown().optional(),
});

export const PlanEntry = lazySchema(() => z.object({
  content: z.string(),
  priority: z.string().optional(),
  status: z.string().optional(),
}));

const TokenCount = lazySchema(() => z.number().int().nonnegative());
export const UsageCost = lazySchema(() => z.object({ amount: z.number(), currency: z.string() }));
export type UsageCost = z.infer<typeof UsageCost>;

/** Tokens of one turn, by kind; the optional ones only where the agent counts them. */
export const TurnTokens = lazySchema(() => z.object({
  inputTokens: TokenCount,
  outputTokens: TokenCount,
  totalTokens: TokenCount,
  thoughtTokens: TokenCount.optional(),
  cachedReadTokens: TokenCount.optional(),
  cachedWriteTokens: TokenCount.optional(),
}));
export type TurnTokens = z.infer<typeof TurnTokens>;

/** What an agent reported, in one shape whatever dialect it speaks. */
export const AgentUpdate = lazySchema(() => z.discriminatedUnion('kind', [
  /** A chunk of a message; `messageId` is the agent's, where it sends one (chunks of one message share it). */
  z.object({ kind: z.literal('message'), role: z.enum(['agent', 'thought', 'user']), text: z.string(), messageId: z.string().optional() }),
  z.object({ kind: z.literal('tool-call'), ...toolCallFields() }),
  z.object({ kind: z.literal('tool-call-update'), ...toolCallFields() }),
  z.object({ kind: z.literal('plan'), entries: z.array(PlanEntry) }),
  /** ACP `usage_update`: tokens now in the agent's context of `size`, and the session's cost so far, where it says. */
  z.object({ kind: z.literal('usage'), used: TokenCount, size: TokenCount, cost: UsageCost.optional() }),
  /** The tokens one turn took, as the agent reports them at its end (ACP `session/prompt` answer's `usage`). */
  z.object({ kind: z.literal('turn-usage'), ...TurnTokens.shape }),
  /**
   * A variant we do not model yet (modes, commands, extensions): stored and streamed as sent. `text` is set
   * for kinds the desk does not know at all (newer than its ACP, or a vendor's own), which the board shows as text.
   */
  z.object({ kind: z.literal('other'), name: z.string(), data: z.unknown(), text: z.string().optional() }),
]));
export type AgentUpdate = z.infer<typeof AgentUpdate>;

export const LogLevel = lazySchema(() => z.enum(['info', 'warn', 'error']));

/**
 * Where a message event's text sits in a run of chunks the store keeps as one event: `from` is the seq of the
 * run's first chunk, `offset` the characters of the run before this text. Live chunks carry it, and so does the
 * stored event that replaces them (offset 0, seq of the run's last chunk), so a client that saw some chunks
 * live shows only the rest of the stored text.
 */
export const MessageRun = lazySchema(() => z.object({ from: z.number().int(), offset: z.number().int().nonnegative() }));
export type MessageRun = z.infer<typeof MessageRun>;

/** Everything that happens to a task. */
export const TaskEvent = lazySchema(() => z.discriminatedUnion('type', [
  /** The task was submitted or changed (status, commit, error…); carries the new summary. */
  z.object({ type: z.literal('task'), task: TaskSummary }),
  z.object({ type: z.literal('agent'), update: AgentUpdate, run: MessageRun.optional() }),
  /** What a person asked the agent: the task's prompt (turn 1), then each follow-up (review comments are sent as one). */
  z.object({ type: z.literal('prompt'), turn: z.number().int().positive(), text: z.string() }),
  /** Progress of the desk's own work (worktree ready, agent started) and the agent's stderr. */
  z.object({ type: z.literal('log'), level: LogLevel, source: z.enum(['desk', 'agent']), text: z.string() }),
  /** A terminal the agent asked for (ACP `terminal/create`), its output in batches, and its end. */
  z.object({ type: z.literal('terminal-started'), terminalId: z.string(), command: z.string(), args: z.array(z.string()), cwd: z.string() }),
  z.object({ type: z.literal('terminal-output'), terminalId: z.string(), data: z.string() }),
  z.object({ type: z.literal('terminal-exited'), terminalId: z.string(), exitCode: z.number().int().nullable(), signal: z.string().nullable() }),
  /** The agent waits for a person; and the answer that let it go on. */
  z.object({ type: z.literal('question-opened'), question: OpenQuestion }),
  z.object({ type: z.literal('question-answered'), questionId: z.string(), answer: QuestionAnswer, answeredBy: z.string() }),
  /** The store dropped this much of the task's output here (past its cap); what follows is the newest output. */
  z.object({ type: z.literal('output-truncated'), droppedBytes: z.number().int().nonnegative() }),
  /** The agent wants a login (at initialize, session/new or a prompt): its login methods and what works for each. */
  z.object({ type: z.literal('login-required'), help: LoginHelp }),
  /** A governance decision about something the agent asked to do. */
  z.object({
    type: z.literal('governance'), requestId: z.string(), decision: z.enum(['approved', 'rejected', 'escalated']),
    rule: z.string(), reason: z.string(),
  }),
]));
export type TaskEvent = z.infer<typeof TaskEvent>;

/** A stored event: `seq` grows by one for every event the core records, across all tasks. */
export const EventEnvelope = lazySchema(() => z.object({
  seq: z.number().int(),
  taskId: z.string(),
  attempt: z.number().int(),
  at: z.string(),
  event: TaskEvent,
}));
export type EventEnvelope = z.infer<typeof EventEnvelope>;

/** `GET /api/tasks/<id>/events` answer. */
export const EventPage = lazySchema(() => z.object({
  events: z.array(EventEnvelope),
  /** Pass as `after` to read on; absent when there is nothing more right now. */
  nextAfter: z.number().int().optional(),
}));
export type EventPage = z.infer<typeof EventPage>;

/** What the `/api/events` WebSocket sends: events in order, batched. */
export const EventsMessage = lazySchema(() => z.object({ type: z.literal('events'), events: z.array(EventEnvelope) }));
export type EventsMessage = z.infer<typeof EventsMessage>;

/** The WebSocket subprotocol the desk speaks; browsers pass the token as a second one, `bearer.<token>`. */
export const EVENTS_SUBPROTOCOL = 'assignment-desk.v1';
