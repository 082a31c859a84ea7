// The commit message of a finished task: the prompt's first line, a blank line, the whole prompt, trailers. Pure.
import { firstLineOf } from '../../../shared/task';

export function commitMessageFor(taskId: string, prompt: string, extraTrailers: Record<string, string> = {}): string {
  const body = prompt.replace(/\r\n/g, '\n').trim();
  const trailers = Object.entries({ 'Task-Id': taskId, ...extraTrailers }).map(([key, value]) => `${key}: ${value}`);
  return `${firstLineOf(body)}\n\n${body}\n\n${trailers.join('\n')}\n`;
}
