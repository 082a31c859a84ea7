// What a card says the agent did last: a tool call's title or the tail of its message. Pure, no zod, so the
// core (which serves it on the task summary) and the board (which follows it live) read updates the same way.
import type { AgentUpdate } from './events';

export interface Activity {
  kind: 'tool' | 'message' | 'thought' | 'plan';
  text: string;
  /** Set when the task's status changed since: the next message starts a new snippet instead of continuing this one. */
  sealed?: boolean;
}

/** How much of a message's tail a card keeps. */
export const ACTIVITY_CHARS = 160;

/** The latest activity after an agent update; message chunks join the message they continue. */
export function nextActivity(previous: Activity | undefined, update: AgentUpdate): Activity | undefined {
  switch (update.kind) {
    case 'tool-call':
      return { kind: 'tool', text: oneLine(update.title ?? update.toolKind ?? 'Tool call') };
    case 'tool-call-update':
      return update.title ? { kind: 'tool', text: oneLine(update.title) } : previous;
    case 'message': {
      if (update.role === 'user') return previous;
      const kind = update.role === 'thought' ? 'thought' : 'message';
      const joined = previous?.kind === kind && !previous.sealed ? previous.text + update.text : update.text;
      const text = oneLine(joined);
      return { kind, text: text.length > ACTIVITY_CHARS ? text.slice(-ACTIVITY_CHARS) : text };
    }
    case 'plan': {
      const done = update.entries.filter((entry) => entry.status === 'completed').length;
      return { kind: 'plan', text: `Plan: ${done} of ${update.entries.length} done` };
    }
    default:
      return previous;
  }
}

/** The activity once the task's status changed: the next message starts afresh. */
export function sealActivity(activity: Activity | undefined): Activity | undefined {
  return activity && !activity.sealed ? { ...activity, sealed: true } : activity;
}

/** Collapses white space; the end is kept so the next chunk joins with its space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trimStart();
}
