// What failed during an agent's turn (tool calls that ended `failed`, commands that exited non-zero), read from the
// turn's own events, and the "no changes" verdict for a turn that ended well but changed no file. Pure.
import type { TaskEvent } from '../../../shared/events';
import { isObject } from '../../../shared/is-object';
import type { FailedStep, NoChanges } from '../../../shared/task';

/** A turn that failed a thousand times is described by its first failures; the rest are in its activity. */
const MOST_KEPT = 20;
const LONGEST_DETAIL = 200;

export interface TurnFailures {
  /** Every event the turn records passes through here. */
  see(event: TaskEvent): void;
  list(): FailedStep[];
}

export function createTurnFailures(): TurnFailures {
  const toolTitles = new Map<string, string>();
  const failedTools = new Set<string>();
  const commands = new Map<string, string>();
  const failed: FailedStep[] = [];
  const add = (step: FailedStep) => { if (failed.length < MOST_KEPT) failed.push(step); };
  return {
    see(event) {
      if (event.type === 'agent' && (event.update.kind === 'tool-call' || event.update.kind === 'tool-call-update')) {
        const { toolCallId, title, status, content } = event.update;
        if (title !== undefined) toolTitles.set(toolCallId, title);
        if (status !== 'failed' || failedTools.has(toolCallId)) return;
        failedTools.add(toolCallId);
        const detail = firstTextLine(content);
        add({ title: toolTitles.get(toolCallId) ?? `Tool call ${toolCallId}`, ...(detail !== undefined && { detail }) });
      } else if (event.type === 'terminal-started') {
        commands.set(event.terminalId, [event.command, ...event.args].join(' '));
      } else if (event.type === 'terminal-exited' && (event.signal !== null || (event.exitCode !== null && event.exitCode !== 0))) {
        add({ title: commands.get(event.terminalId) ?? `Terminal ${event.terminalId}`, detail: event.signal !== null ? `killed by ${event.signal}` : `exit code ${event.exitCode}` });
      }
    },
    list: () => [...failed],
  };
}

/** The first line of text in ACP tool call content (`{type: 'content', content: {type: 'text', text}}`). */
function firstTextLine(content: readonly unknown[] | undefined): string | undefined {
  for (const block of content ?? []) {
    const inner = isObject(block) && isObject(block.content) ? block.content : undefined;
    if (inner?.type !== 'text' || typeof inner.text !== 'string') continue;
    const line = inner.text.split('\n').map((part) => part.trim()).find((part) => part !== '');
    if (line !== undefined) return line.length > LONGEST_DETAIL ? `${line.slice(0, LONGEST_DETAIL)}…` : line;
  }
  return undefined;
}

/** The verdict for a turn that ended well without changing a file. */
export function noChangesOf(agentName: string, failed: readonly FailedStep[]): NoChanges {
  const head = `${agentName} ended its turn without changing any file, so nothing was committed.`;
  if (failed.length === 0) return { summary: head, failed: [] };
  const named = failed.slice(0, 3).map((step) => `${step.title}${step.detail ? ` (${step.detail})` : ''}`).join('; ');
  const more = failed.length > 3 ? `; and ${failed.length - 3} more` : '';
  return { summary: `${head} ${failed.length === 1 ? 'This step failed' : `${failed.length} steps failed`}: ${named}${more}.`, failed: [...failed] };
}
