// A task's live stream as rows to show: message chunks merged, tool calls updated in place, terminals
// kept as output buffers. It lives outside React state on purpose: 50,000 events would make immutable
// copies quadratic. Each changed row is a new object, so memoized rows re-render only when they change.
import type { LoginHelp } from '../../../shared/agents';
import type { AgentUpdate, EventEnvelope, MessageRun, PlanEntry, ToolCallStatus } from '../../../shared/events';
import type { OpenQuestion, QuestionAnswer } from '../../../shared/questions';
import type { TaskStatus } from '../../../shared/task';
import type { z } from 'zod';
import { addTokens, type TokenUsage } from './token-usage';

type Plan = z.infer<typeof PlanEntry>[];

export interface ToolCallItem {
  key: string; kind: 'tool'; toolCallId: string; title: string; toolKind: string; status: ToolCallStatus;
  locations: { path: string; line?: number }[]; content: unknown[]; rawInput?: unknown; rawOutput?: unknown;
}

export type StreamItem =
  /** `continues`: the rest of a long message, in a row of its own so the list stays light. */
  | { key: string; kind: 'message'; role: 'agent' | 'user'; text: string; messageId?: string; continues?: true }
  | { key: string; kind: 'thought'; text: string; messageId?: string; continues?: true }
  /** What a person asked: the task's prompt (turn 1) or a follow-up. */
  | { key: string; kind: 'prompt'; turn: number; text: string }
  | ToolCallItem
  | { key: string; kind: 'plan'; entries: Plan }
  | {
    key: string; kind: 'terminal'; terminalId: string; command: string; exit?: { exitCode: number | null; signal: string | null };
    /** True once a tool call shows this terminal: the row then stays empty instead of showing it twice. */
    owned?: boolean;
  }
  /** `answered` once a person (or the desk, cancelling) answered it; until then the chat below shows it. */
  | { key: string; kind: 'question'; question: OpenQuestion; answered?: true }
  /** `choice`: the name of the option chosen, as the question offered it. */
  | { key: string; kind: 'answer'; questionId: string; answer: QuestionAnswer; answeredBy: string; choice?: string }
  | { key: string; kind: 'governance'; decision: string; rule: string; reason: string }
  /** The agent wants a login: its methods, each with the action that works. */
  | { key: string; kind: 'login'; help: LoginHelp }
  | { key: string; kind: 'log'; level: string; source: string; text: string }
  /** The tokens a turn reported (one row per turn, updated as reports come). */
  | { key: string; kind: 'usage'; turn: number; usage: TokenUsage }
  /** The desk stored only the start and the end of the task's output; this much in between was dropped. */
  | { key: string; kind: 'truncated'; droppedBytes: number }
  | { key: string; kind: 'status'; status: TaskStatus; review: string };

/** A terminal's output, kept as chunks; a listener (the xterm view) gets new data without React. */
export interface TerminalBuffer {
  chunks: string[];
  size: number;
  listeners: Set<(data: string) => void>;
}

export interface TaskStream {
  items: StreamItem[];
  lastSeq: number;
  toolIndex: Map<string, number>;
  planIndex: number | undefined;
  terminals: Map<string, TerminalBuffer>;
  lastStatus: string | undefined;
  /** The message run last shown and how many of its characters: a stored run replayed after live chunks adds only the rest. */
  run: { from: number; end: number } | undefined;
  /** Rows the person opened (thoughts, tool calls, terminals), so they stay open when scrolled back into view. */
  expanded: Set<string>;
  /** The message (or thought) that chunks still join, until a boundary ends it (see `endsMessage`). */
  open: number | undefined;
  /** Question rows by question id, so an answer marks its question. */
  questionIndex: Map<string, number>;
  /** The current turn (from its prompt) and its usage row, once it reported any. */
  turn: number;
  usageIndex: number | undefined;
  /** What the whole task reported: its turns' tokens added up, the latest context and cost. */
  usage: TokenUsage;
}

/** A merged message longer than this continues in a new row at its next line break (outside code fences),
 * so a flood of chunks stays many small rows the list can virtualize, not one row re-parsed every frame. */
const MESSAGE_ROW_CHARS = 4000;

function canContinue(text: string): boolean {
  return text.length < MESSAGE_ROW_CHARS || !text.endsWith('\n') || (text.match(/```/g)?.length ?? 0) % 2 === 1;
}

/** Terminal output kept per terminal; older output is dropped past this many characters. */
const TERMINAL_LIMIT = 2_000_000;

export function createStream(): TaskStream {
  return {
    items: [], lastSeq: 0, toolIndex: new Map(), planIndex: undefined, terminals: new Map(), lastStatus: undefined, run: undefined,
    expanded: new Set(), open: undefined, questionIndex: new Map(), turn: 1, usageIndex: undefined, usage: {},
  };
}

/**
 * Whether an event ends the message being written, so the agent's next words are a message of their own: a
 * tool call or its progress, a plan, a question and its answer, a person's prompt, a status change (a turn
 * ending), dropped output. Terminal output, logs (an agent's stderr runs beside its messages), usage reports and `other`
 * updates (modes) do not. A change of the agent's message id ends it too (see `joinsOpen`).
 */
export function endsMessage(event: EventEnvelope['event']): boolean {
  switch (event.type) {
    case 'agent':
      return event.update.kind !== 'message' && event.update.kind !== 'other' && event.update.kind !== 'usage' && event.update.kind !== 'turn-usage';
    case 'terminal-started':
    case 'terminal-output':
    case 'terminal-exited':
    case 'log':
    case 'governance':
      return false;
    default:
      return true;
  }
}

/** Whether a chunk continues the open message: same kind and role, and no other message id than the one it had. */
function joinsOpen(open: StreamItem | undefined, kind: 'message' | 'thought', role: 'agent' | 'user', messageId: string | undefined): boolean {
  if (!open || open.kind !== kind || (open.kind === 'message' && open.role !== role)) return false;
  return messageId === undefined || open.messageId === undefined || open.messageId === messageId;
}

export function terminalBuffer(stream: TaskStream, terminalId: string): TerminalBuffer {
  let buffer = stream.terminals.get(terminalId);
  if (!buffer) {
    buffer = { chunks: [], size: 0, listeners: new Set() };
    stream.terminals.set(terminalId, buffer);
  }
  return buffer;
}

/** Appends events in order (older or repeated seqs are skipped); returns whether any row changed. */
export function appendToStream(stream: TaskStream, envelopes: readonly EventEnvelope[]): boolean {
  let changed = false;
  for (const envelope of envelopes) {
    if (envelope.seq <= stream.lastSeq) continue;
    stream.lastSeq = envelope.seq;
    if (appendOne(stream, envelope)) changed = true;
  }
  return changed;
}

function appendOne(stream: TaskStream, { seq, event }: EventEnvelope): boolean {
  const key = String(seq);
  const items = stream.items;
  const last = items.at(-1);
  if (endsMessage(event)) stream.open = undefined;
  switch (event.type) {
    case 'task': {
      const status = `${event.task.status}/${event.task.review}`;
      if (status === stream.lastStatus) return false;
      stream.lastStatus = status;
      items.push({ key, kind: 'status', status: event.task.status, review: event.task.review });
      return true;
    }
    case 'prompt':
      items.push({ key, kind: 'prompt', turn: event.turn, text: event.text });
      stream.turn = event.turn;
      stream.usageIndex = undefined;
      return true;
    case 'agent': {
      const update = event.update;
      if (update.kind === 'message') {
        const text = unseenText(stream, update.text, event.run);
        if (text === '') return false;
        const kind = update.role === 'thought' ? 'thought' : 'message';
        const role = update.role === 'user' ? 'user' : 'agent';
        const open = stream.open === undefined ? undefined : items[stream.open];
        const ids = update.messageId === undefined ? {} : { messageId: update.messageId };
        if (open && (open.kind === 'message' || open.kind === 'thought') && joinsOpen(open, kind, role, update.messageId)) {
          if (canContinue(open.text)) {
            items[stream.open as number] = { ...open, text: open.text + text, ...ids };
            return true;
          }
          stream.open = items.length;
          items.push(kind === 'thought' ? { key, kind, text, ...ids, continues: true } : { key, kind, role, text, ...ids, continues: true });
          return true;
        }
        stream.open = items.length;
        items.push(kind === 'thought' ? { key, kind, text, ...ids } : { key, kind, role, text, ...ids });
        return true;
      }
      if (update.kind === 'tool-call' || update.kind === 'tool-call-update') {
        const index = stream.toolIndex.get(update.toolCallId);
        const existing = index === undefined ? undefined : items[index];
        const base: ToolCallItem = existing?.kind === 'tool' ? existing : {
          key, kind: 'tool', toolCallId: update.toolCallId, title: 'Tool call', toolKind: 'other', status: 'pending', locations: [], content: [],
        };
        const next: ToolCallItem = {
          ...base,
          ...(update.title !== undefined && { title: update.title }),
          ...(update.toolKind !== undefined && { toolKind: update.toolKind }),
          ...(update.status !== undefined && { status: update.status }),
          ...(update.locations !== undefined && { locations: update.locations }),
          ...(update.content !== undefined && { content: update.content }),
          ...(update.rawInput !== undefined && { rawInput: update.rawInput }),
          ...(update.rawOutput !== undefined && { rawOutput: update.rawOutput }),
        };
        if (index === undefined) {
          stream.toolIndex.set(update.toolCallId, items.length);
          items.push(next);
        } else {
          items[index] = next;
        }
        if (update.content) claimTerminals(items, update.content);
        return true;
      }
      if (update.kind === 'plan') {
        const item = { key: stream.planIndex === undefined ? key : (items[stream.planIndex]?.key ?? key), kind: 'plan' as const, entries: update.entries };
        if (stream.planIndex === undefined) {
          stream.planIndex = items.length;
          items.push(item);
        } else {
          items[stream.planIndex] = item;
        }
        return true;
      }
      if (update.kind === 'usage' || update.kind === 'turn-usage') {
        addUsage(stream, key, update);
        return true;
      }
      // A kind of update the desk does not know: shown as text rather than dropped.
      if (update.kind === 'other' && update.text !== undefined) {
        items.push({ key, kind: 'log', level: 'info', source: 'agent', text: `${update.name}: ${update.text}` });
        return true;
      }
      return false;
    }
    case 'login-required':
      items.push({ key, kind: 'login', help: event.help });
      return true;
    case 'log':
      // Consecutive lines of an agent's stderr read as one block.
      if (event.source === 'agent' && last?.kind === 'log' && last.source === 'agent' && last.level === event.level) {
        items[items.length - 1] = { ...last, text: `${last.text}\n${event.text}` };
      } else {
        items.push({ key, kind: 'log', level: event.level, source: event.source, text: event.text });
      }
      return true;
    case 'terminal-started':
      terminalBuffer(stream, event.terminalId);
      items.push({ key, kind: 'terminal', terminalId: event.terminalId, command: [event.command, ...event.args].join(' ') });
      return true;
    case 'terminal-output': {
      const buffer = terminalBuffer(stream, event.terminalId);
      buffer.chunks.push(event.data);
      buffer.size += event.data.length;
      while (buffer.size > TERMINAL_LIMIT && buffer.chunks.length > 1) buffer.size -= buffer.chunks.shift()?.length ?? 0;
      for (const listener of buffer.listeners) listener(event.data);
      return false;
    }
    case 'terminal-exited': {
      const index = items.findLastIndex((item) => item.kind === 'terminal' && item.terminalId === event.terminalId);
      const item = items[index];
      if (item?.kind !== 'terminal') return false;
      items[index] = { ...item, exit: { exitCode: event.exitCode, signal: event.signal } };
      return true;
    }
    case 'question-opened':
      stream.questionIndex.set(event.question.id, items.length);
      items.push({ key, kind: 'question', question: event.question });
      return true;
    case 'question-answered': {
      const index = stream.questionIndex.get(event.questionId);
      const question = index === undefined ? undefined : items[index];
      if (question?.kind === 'question') items[index as number] = { ...question, answered: true };
      const choice = 'optionId' in event.answer && question?.kind === 'question'
        ? question.question.options?.find((option) => 'optionId' in event.answer && option.optionId === event.answer.optionId)?.name : undefined;
      items.push({ key, kind: 'answer', questionId: event.questionId, answer: event.answer, answeredBy: event.answeredBy, ...(choice !== undefined && { choice }) });
      return true;
    }
    case 'governance':
      items.push({ key, kind: 'governance', decision: event.decision, rule: event.rule, reason: event.reason });
      return true;
    case 'output-truncated':
      items.push({ key, kind: 'truncated', droppedBytes: event.droppedBytes });
      return true;
  }
}

/**
 * The part of a message's text not shown yet. The store keeps a run of chunks as one event carrying the same
 * run (`from`) as the chunks sent live, so when both arrive (a socket reconnecting mid-run) the characters
 * already shown are skipped.
 */
function unseenText(stream: TaskStream, text: string, run: MessageRun | undefined): string {
  if (!run) return text;
  const end = run.offset + text.length;
  const seen = stream.run?.from === run.from ? stream.run.end : undefined;
  stream.run = { from: run.from, end: Math.max(end, seen ?? 0) };
  if (seen === undefined || seen <= run.offset) return text;
  return seen >= end ? '' : text.slice(seen - run.offset);
}

/** A usage report joins its turn's row (made at the first) and the task's tally. */
function addUsage(stream: TaskStream, key: string, update: Extract<AgentUpdate, { kind: 'usage' | 'turn-usage' }>): void {
  const row = stream.usageIndex === undefined ? undefined : stream.items[stream.usageIndex];
  const turn: TokenUsage = row?.kind === 'usage' ? row.usage : {};
  let next: TokenUsage;
  if (update.kind === 'usage') {
    const reported = { context: { used: update.used, size: update.size }, ...(update.cost && { cost: update.cost }) };
    next = { ...turn, ...reported };
    stream.usage = { ...stream.usage, ...reported };
  } else {
    const { kind: _kind, ...tokens } = update;
    next = { ...turn, tokens: addTokens(turn.tokens, tokens) };
    stream.usage = { ...stream.usage, tokens: addTokens(stream.usage.tokens, tokens) };
  }
  if (row?.kind === 'usage') {
    stream.items[stream.usageIndex as number] = { ...row, usage: next };
  } else {
    stream.usageIndex = stream.items.length;
    stream.items.push({ key, kind: 'usage', turn: stream.turn, usage: next });
  }
}

/** Marks the terminal rows a tool call's content shows, so each terminal appears once. */
function claimTerminals(items: StreamItem[], content: readonly unknown[]): void {
  for (const block of content) {
    const terminalId = (block as { type?: unknown; terminalId?: unknown } | null)?.type === 'terminal' ? (block as { terminalId?: unknown }).terminalId : undefined;
    if (typeof terminalId !== 'string') continue;
    const index = items.findLastIndex((item) => item.kind === 'terminal' && item.terminalId === terminalId);
    const item = items[index];
    if (item?.kind === 'terminal' && !item.owned) items[index] = { ...item, owned: true };
  }
}
