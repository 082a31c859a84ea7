// What a task says when its agent is in trouble: an error with no useful message explained from the agent's own
// output, and a turn gone silent described with the agent's last log lines. Pure; the task runner records both.
import { isObject } from '../../../shared/is-object';

/** JSON-RPC errors that say nothing beyond "it failed": the standard names of the codes, and the usual blanks. */
const BARE_MESSAGES = new Set([
  '', 'error', 'internal error', 'internal server error', 'server error', 'unknown error', 'an error occurred',
  'invalid request', 'invalid params', 'method not found', 'parse error',
]);

const TAIL_LINES = 5;
const LONGEST_LINE = 300;

/** The agent's error as JSON-RPC carries it. */
export interface AgentError { code: number; message: string; data?: unknown }

export function isBareError(error: AgentError): boolean {
  return BARE_MESSAGES.has(error.message.trim().replace(/[.!]+$/, '').toLowerCase());
}

/**
 * The model endpoints the agent was pointed at (its `…_BASE_URL` variables), as `NAME=url` with any user and password
 * taken out of the URL: they go into the task's error, which clients read.
 */
export function modelEndpoints(env: Readonly<Record<string, string>>): string[] {
  return Object.entries(env)
    .filter(([name, value]) => name.endsWith('_BASE_URL') && value.trim() !== '')
    .map(([name, value]) => `${name}=${withoutCredentials(value)}`)
    .sort();
}

/** A URL with any user and password taken out (an unparsable value is kept as it is). */
export function withoutCredentials(value: string): string {
  try {
    const url = new URL(value);
    if (url.username === '' && url.password === '') return value;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return value;
  }
}

/** The last few lines the agent wrote on stderr, shortened; empty when it wrote none. */
export function logTail(recentLog: string): string[] {
  return recentLog.split('\n').map((line) => line.trim()).filter((line) => line !== '').slice(-TAIL_LINES)
    .map((line) => (line.length > LONGEST_LINE ? `${line.slice(0, LONGEST_LINE)}…` : line));
}

/** What the error's `data` says, when it says something (claude-code-acp puts the cause in `data.details`). */
function dataText(data: unknown): string | undefined {
  if (typeof data === 'string') return data.trim() || undefined;
  if (!isObject(data)) return undefined;
  for (const key of ['details', 'message', 'error', 'cause', 'reason']) {
    const value = data[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  const json = JSON.stringify(data);
  return json === '{}' ? undefined : json.slice(0, LONGEST_LINE);
}

const indented = (lines: readonly string[]) => lines.map((line) => `  ${line}`).join('\n');

/**
 * The task's error for an agent that answered a request with a JSON-RPC error: its message, and for a bare one the
 * cause from its own output (the error's data, its last stderr lines) and what to do; the endpoint it was pointed at.
 */
export function agentFailureMessage(error: AgentError, context: { recentLog: string; endpoints: readonly string[] }): string {
  const said = error.message.trim().replace(/\.+$/, '') || `error ${error.code}`;
  // Some agents (Gemini CLI) answer a failed model call with the HTTP status as the error's code and leave it out of
  // the words; a person needs it (429 and 500 call for different things).
  const status = error.code >= 400 && error.code <= 599 && !said.includes(String(error.code)) ? ` (HTTP ${error.code})` : '';
  const lines = [`The agent failed${status}: ${said}.`];
  if (isBareError(error)) {
    const data = dataText(error.data);
    const tail = logTail(context.recentLog);
    if (data !== undefined) lines.push(`Its error says: ${data}`);
    if (tail.length > 0) lines.push(`Its last lines on stderr:\n${indented(tail)}`);
    lines.push(data === undefined && tail.length === 0
      ? 'It gave no cause and wrote nothing on stderr: run it outside the desk with the same variables to see why, then resubmit the task.'
      : 'The usual causes are a login it lacks, a model endpoint it cannot reach (see the policy\'s network) or a state file it cannot write. Fix that cause (the agent\'s whole log is in the task\'s activity), then resubmit the task.');
  }
  const pointed = endpointLine(context.endpoints);
  if (pointed !== undefined) lines.push(pointed);
  return lines.join('\n');
}

/** The line that names the model endpoints an agent was pointed at, for an error; undefined when it was given none. */
export function endpointLine(endpoints: readonly string[]): string | undefined {
  if (endpoints.length === 0) return undefined;
  return `It was pointed at ${endpoints.join(', ')}: check that this endpoint answers (inside the desk's sandbox, the policy's network must name its host and port).`;
}

/** The log line for a turn in which the agent has said nothing for `quietMs`. */
export function stallNotice(context: { agentName: string; quietMs: number; recentLog: string; endpoints: readonly string[] }): string {
  const tail = logTail(context.recentLog);
  const seconds = Math.round(context.quietMs / 1000);
  const head = `${context.agentName} has sent nothing for ${seconds} s.`;
  const body = tail.length > 0
    ? ` Its last lines on stderr:\n${indented(tail)}`
    : ' It wrote nothing on stderr either.';
  const where = context.endpoints.length > 0 ? `\nIt is pointed at ${context.endpoints.join(', ')}; a model that does not answer there keeps it waiting.` : '';
  return `${head}${body}${where}`;
}
