// What an agent's error answer means to a person: vendor agents often answer "Internal error" and put the cause in
// the error's data (the SDK's `{details}`) or only in their own log, so the task's error quotes both and says what to do.
import { isObject } from '../../../shared/is-object';

/** How many of the agent's last log lines a bare error quotes. */
const LOG_LINES = 5;
const DETAIL_LIMIT = 500;

/** The cause an error answer carries in its data, when it carries one in words. Pure. */
export function causeInData(data: unknown): string | undefined {
  if (typeof data === 'string') return data.trim() || undefined;
  if (!isObject(data)) return undefined;
  for (const key of ['details', 'message', 'error', 'reason']) {
    const value = data[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/**
 * The words for an agent's error answer: its message, the cause from its data, and, when that leaves only a bare
 * "Internal error", the end of the agent's own log and where to look. Pure.
 */
export function agentFailureMessage(message: string, data: unknown, recentLog: string): string {
  const cause = causeInData(data);
  const said = cause && !message.includes(cause) ? `${message}: ${clip(cause)}` : message;
  // The data's cause ("Query closed before response received") rarely says why; the agent's log usually does.
  if (!isBare(message)) return said;
  const tail = recentLog.split('\n').map((line) => line.trim()).filter((line) => line !== '').slice(-LOG_LINES).join(' | ');
  const logged = tail ? ` Its log ends: ${clip(tail)}.` : ' It wrote nothing to its log.';
  return `${said}.${logged} The usual causes are a login it lacks, a model endpoint it cannot reach (see the policy's network) `
    + 'or a state file it cannot write; the task\'s activity has its whole log.';
}

function isBare(text: string): boolean {
  return /^(internal error|unknown error|error)\.?$/i.test(text.trim());
}

function clip(text: string): string {
  return text.length > DETAIL_LIMIT ? `${text.slice(0, DETAIL_LIMIT)}…` : text;
}
