// The title and body a task's pull request gets when the person does not write them: the prompt's first line, the
// whole prompt, and the desk's summary of the run; and the list of files that need attention every body ends with. Pure.
import { firstLineOf, type AttentionFile } from '../../../shared/task';
import type { TaskRecord } from '../store/tasks-repo';

export function pullRequestText(task: TaskRecord): { title: string; body: string } {
  const agent = task.agentInfo ? `${task.agentInfo.title ?? task.agentInfo.name}${task.agentInfo.version ? ` ${task.agentInfo.version}` : ''}` : task.agent;
  const facts = [
    `Task \`${task.id}\` on Assignment Desk, done by ${agent}`,
    task.workingMs > 0 ? `worked ${formatDuration(task.workingMs)}` : undefined,
    task.commit ? `at ${task.commit.slice(0, 12)}` : undefined,
  ].filter(Boolean).join(', ');
  return { title: firstLineOf(task.prompt).slice(0, 256), body: `${task.prompt.trim()}\n\n---\n${facts}.\n` };
}

/**
 * The files of the task's diff that can run code or steer agents once merged, for the end of the request's body
 * (whoever wrote the rest): reviewers on the forge see them as the board showed them. Empty when there are none.
 */
export function attentionSection(files: readonly AttentionFile[]): string {
  if (files.length === 0) return '';
  const lines = files.map((file) => `- \`${file.path.replaceAll('`', "'")}\`: ${file.reason}`);
  return `\n### Files that can run code or steer agents\n\nThese change what runs on a machine that checks this branch out, or what coding agents read there; look at them first:\n\n${lines.join('\n')}\n`;
}

function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes}m ${seconds % 60}s` : `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}
