// A run with the desk's watch on it: the quiet timer's limit and result go to QuietTasks, who the agent is and the
// login it wants go to AgentNotes. Kept out of the task service, which only passes a RunContext through.
import type { AgentNotes } from '../agents/agent-notes';
import type { QuietTasks } from './quiet-tasks';
import type { RunContext, RunOutcome } from './task-runner';

export function watchedRun(run: (context: RunContext) => Promise<RunOutcome>, deps: { quiet: QuietTasks; notes: AgentNotes }): (context: RunContext) => Promise<RunOutcome> {
  return async (context) => {
    const { id, agent } = context.task;
    try {
      const outcome = await run({
        ...context,
        watch: {
          quietAfterMs: () => deps.quiet.limitSeconds() * 1000,
          setQuiet: (since) => deps.quiet.set(id, since),
          sawAgent: (implementation) => deps.notes.saw(agent, implementation),
          needsLogin: (help) => deps.notes.needsLogin(agent, help),
        },
      });
      if (outcome.status === 'completed') deps.notes.worked(agent);
      return outcome;
    } finally {
      deps.quiet.set(id, undefined);
    }
  };
}
