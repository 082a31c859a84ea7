// Trouble an agent reports in-band rather than on stderr or as an error: Codex says it is retrying its model in a
// `session_info_update` (`_meta.codex.error`), and ends a turn whose model failed normally (`end_turn`) after one
// whose `_meta.codex.threadStatus` is `systemError`, the reason as chat text. Read here, so the activity shows the
// retries and such a task ends in error, not "completed".
import { isObject } from '../../../shared/is-object';
import type { AgentUpdate } from '../../../shared/events';

export interface TurnFailureWatch {
  /** Sees every update of the turn, in order. */
  see(update: AgentUpdate): void;
  /** What went wrong, in the agent's own words, when the agent said its turn failed; `undefined` otherwise. */
  failure(): string | undefined;
}

/** Follows one turn's updates: the failure signal, and the agent's words since the last tool call (its reason). */
/** How much of the agent's latest words a turn keeps, to quote the reason a failed turn gives. */
const KEPT_CHARS = 4096;

export function watchTurnFailure(): TurnFailureWatch {
  let failed = false;
  let retrying: string | undefined;
  let said = '';
  return {
    see(update) {
      // Only the end of what it said can be the reason; the whole of it would grow with an agent that floods.
      if (update.kind === 'message' && update.role === 'agent') said = (said + update.text).slice(-KEPT_CHARS);
      else if (update.kind === 'tool-call') said = '';
      if (update.kind !== 'other' || update.name !== 'session_info_update') return;
      const codex = codexMeta(update.data);
      if (codex === undefined) return;
      if (isObject(codex.threadStatus) && codex.threadStatus.type === 'systemError') failed = true;
      if (isObject(codex.error) && typeof codex.error.additionalDetails === 'string') retrying = codex.error.additionalDetails;
    },
    failure() {
      if (!failed) return undefined;
      // Codex opens the turn with a warning about unknown model metadata; the reason is what it said last.
      const reason = said.split('\n\n').map((part) => part.trim()).filter((part) => part !== '').at(-1) ?? retrying;
      return reason ?? 'it gave no reason';
    },
  };
}

function codexMeta(data: unknown): Record<string, unknown> | undefined {
  if (!isObject(data) || !isObject(data._meta) || !isObject(data._meta.codex)) return undefined;
  return data._meta.codex;
}

/** The task's error for such a turn: the agent's reason, and where to look. */
export function modelFailureMessage(agentName: string, reason: string, endpoints: readonly string[]): string {
  const where = endpoints.length > 0
    ? `It was pointed at ${endpoints.join(', ')}`
    : 'Its model endpoint is in its own configuration (for Codex, the provider\'s base_url in ~/.codex/config.toml)';
  return [
    `${agentName} ended its turn because its model failed: ${reason.replace(/\.+$/, '')}.`,
    `${where}: check that this endpoint answers (inside the desk's sandbox, the policy's network must name its host and port), then resubmit the task.`,
  ].join('\n');
}

/**
 * The activity line for an update in which the agent says it is retrying its model (Codex: "Reconnecting... 2/5",
 * "Reconnecting... waiting for network", with the cause), or `undefined` for any other update.
 */
export function retryNotice(agentName: string, update: AgentUpdate): string | undefined {
  if (update.kind !== 'other' || update.name !== 'session_info_update') return undefined;
  const error = codexMeta(update.data)?.error;
  if (!isObject(error) || typeof error.message !== 'string') return undefined;
  const cause = typeof error.additionalDetails === 'string' && error.additionalDetails.trim() !== '' ? ` (${error.additionalDetails.trim()})` : '';
  const retrying = error.willRetry === true ? ' Its model endpoint is in its own configuration (for Codex, the provider\'s base_url in ~/.codex/config.toml); inside the desk\'s sandbox, the policy\'s network must name its host and port.' : '';
  return `${agentName} reports trouble reaching its model: ${error.message}${cause}.${retrying}`;
}
