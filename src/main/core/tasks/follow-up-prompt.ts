// The prompt of a follow-up turn for an agent that cannot continue its earlier session: the task's story comes with it.
/** An agent that cannot continue its earlier session gets the task's story with the follow-up. */
export function followUpWithContext(original: string, followUp: string): string {
  const quoted = original.split('\n').map((line) => `> ${line}`).join('\n');
  return `You are continuing earlier work on this task in this worktree; its changes so far are committed.\nThe task was:\n${quoted}\n\nNow:\n${followUp}`;
}
