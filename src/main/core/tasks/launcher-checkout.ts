// A new worktree's checkout made by the agent's launcher (../git/checkout-first.ts): whether the launcher can take it,
// and what the task says when it failed there.
import type { RunningAgent } from '../agents/agent-process';
import { CHECKOUT_FAILED_STATUS, type CheckoutFirst, type CheckoutStep } from '../git/checkout-first';
import type { PendingCheckout } from '../git/pending-checkout';
import type { TaskIsolation } from '../sandbox/task-sandbox';

/** How long the log of a launcher that ended is waited for, should something it started still hold its stderr. */
const LOG_WAIT_MS = 1000;

/**
 * The checkout for the launcher to make, or undefined when there is none left to make: the desk makes it now when no
 * launcher of this machine can (a container's runner, no git or `env` on the PATH).
 */
export async function checkoutForLauncher(checkout: PendingCheckout | undefined, isolation: Pick<TaskIsolation, 'kind' | 'agentIndex'>): Promise<CheckoutStep | undefined> {
  if (!checkout || checkout.started) return undefined;
  const step = isolation.kind === 'container' ? undefined : await checkout.step(isolation.agentIndex);
  if (step === undefined) await checkout.now();
  return step;
}

/**
 * The task's error when the launcher's checkout failed (the agent never ran), with the worktree's registration undone
 * as when the desk's own checkout fails; undefined for any other end.
 */
export async function launcherCheckoutFailure(checkout: PendingCheckout | undefined, launcher: CheckoutFirst | undefined, agent: RunningAgent): Promise<string | undefined> {
  if (!checkout || !launcher) return undefined;
  // The turn may end a moment before the launcher's exit is reported (the desk's first write to it failing with EPIPE):
  // its exit is waited for, briefly, as its log is.
  const exit = await withinLogWait(agent.exited);
  if (exit?.code !== CHECKOUT_FAILED_STATUS) return undefined;
  if (agent.logEnded) await withinLogWait(agent.logEnded);
  const failure = launcher.failure(agent.recentLog());
  if (!failure) return undefined;
  // Nothing runs in the worktree: its launcher ended before it became the agent.
  await checkout.abandon();
  const said = failure.stderr === '' ? '.' : `:\n${failure.stderr}`;
  return failure.step === 'copy'
    ? `The task's index could not be copied into its sandbox's git dir${said}\nResubmit the task to try again.`
    : `The task's files could not be checked out in its new worktree (git reset --hard exited with ${failure.exitCode})${said}\nResubmit the task to try again; a full disk or a lock file left in the repository's .git are the usual causes.`;
}

/** `done`'s value, or undefined once the log's wait is over. */
async function withinLogWait<T>(done: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([done, new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), LOG_WAIT_MS); })]);
  } finally {
    clearTimeout(timer);
  }
}
