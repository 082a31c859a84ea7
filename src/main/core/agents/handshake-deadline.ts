// The time an agent has to answer each step of the handshake (initialize, authenticate, session/new, load, resume):
// an agent that never answers fails its task with the step's name instead of leaving it in progress forever.
import { deskError, type DeskError } from '../../../shared/desk-error';
import type { MessageChannel } from '../../../shared/ndjson-channel';

/** Long enough for an agent that starts a CLI or a model client on a slow machine; a task passes its own. */
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 30_000;

export function handshakeTimedOut(step: string, timeoutMs: number): DeskError {
  const seconds = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`;
  return deskError('unavailable', 'agent_handshake_timeout',
    `The agent did not answer ${step} within ${seconds}. Check that its command starts an agent speaking ACP (or Kandev) on `
    + 'stdin/stdout, and its dialect setting; its own log lines are in the task\'s activity. An agent that is only slow to '
    + 'start can be given more time with "handshakeTimeoutMs" in its agents.json entry.',
    { step, timeoutMs });
}

/**
 * `work`, or the step's timeout error once `timeoutMs` passes without an answer. The channel is closed with that
 * error then, so everything still waiting on the agent ends with the same words.
 */
export async function withinHandshake<T>(step: string, timeoutMs: number, channel: MessageChannel, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = handshakeTimedOut(step, timeoutMs);
      reject(error);
      channel.close(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(), expired]);
  } finally {
    clearTimeout(timer);
  }
}
