// The repository's check (`check` of `.desk/config.json`) on a turn's committed work: run in a sandbox of its own made
// like the agent's (so what the check writes is never part of the turn's commit), streamed as the `check` terminal;
// what it leaves in the worktree is swept after it (./check-leftovers.ts), so no later commit takes it either.
import type { CheckResult } from '../../../shared/task';
import { agentEnvironment } from '../agents/agent-environment';
import type { AgentSpec } from '../agents/agent-spec';
import { checkNotRun, checkResultOf } from '../workspace/check-result';
import { runWorktreeStep } from '../workspace/run-setup';
import type { TaskEvent } from '../../../shared/events';
import type { IsolationRequest, TaskIsolation } from '../sandbox/task-sandbox';
import type { WorkspaceSetup } from '../workspace/workspace-setup';
import type { GitService } from '../git/git-service';
import { sweepText, watchCheckLeftovers } from './check-leftovers';

/** What the check needs of a turn's run (the runner's RunContext, of which it takes only these). */
export interface CheckContext {
  task: { id: string };
  workspace: Pick<WorkspaceSetup, 'config'>;
  isolate(request: IsolationRequest): Promise<TaskIsolation>;
  record(event: TaskEvent): void;
  signal: AbortSignal;
  /** Reads the worktree as a commit would take it, so what the check leaves is swept; absent, nothing is swept. */
  git?: Pick<GitService, 'liveDiff'>;
}

/**
 * The check's result, or undefined when the repository has none; `cancelled` when the task was cancelled while it ran.
 * `head`: the commit the worktree holds (the turn's, else the one before), against which what the check left is told.
 */
export async function checkTurn(context: CheckContext, spec: AgentSpec, worktree: string, head?: string): Promise<CheckResult | 'cancelled' | undefined> {
  const log = (text: string, level: 'info' | 'warn' = 'info') => context.record({ type: 'log', level, source: 'desk', text });
  let command: string | undefined;
  try {
    command = (await context.workspace.config()).check;
  } catch (error) {
    // A config file broken since the turn began leaves the work committed; the check says why it did not run.
    return checkNotRun(error instanceof Error ? error.message : String(error));
  }
  if (command === undefined) return undefined;
  log(`Check: ${command}`);
  let isolation: TaskIsolation;
  try {
    isolation = await context.isolate({ taskId: context.task.id, worktree, agent: spec, log: (line) => log(line, 'warn'), fresh: false });
  } catch (error) {
    const reason = `The check did not run: ${error instanceof Error ? error.message : String(error)}`;
    log(reason, 'warn');
    return checkNotRun(reason);
  }
  const sweep = context.git ? await watchCheckLeftovers(context.git, worktree, head, isolation.reach) : undefined;
  const startedAt = performance.now();
  try {
    const env = { ...agentEnvironment(process.env, spec), ...isolation.env };
    const outcome = await runWorktreeStep({ step: 'check', command, worktree, env, isolation, record: context.record, signal: context.signal });
    const swept = await sweep?.().catch((error: unknown) => ({ failed: error instanceof Error ? error.message : String(error) }));
    if (swept && 'failed' in swept) log(`What the check wrote could not be swept (${swept.failed}); a follow-up's commit may include it.`, 'warn');
    else if (swept && sweepText(swept)) log(sweepText(swept) as string);
    if (context.signal.aborted) return 'cancelled';
    const result = checkResultOf(outcome, performance.now() - startedAt);
    log(result.status === 'passed' ? 'Check passed.' : result.status === 'failed' ? `Check failed (exit code ${result.exitCode}).` : 'Check could not run to its end.', result.status === 'passed' ? 'info' : 'warn');
    return result;
  } finally {
    await isolation.dispose();
  }
}
