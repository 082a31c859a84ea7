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
export async function launcherCheckoutFailure(checkout: PendingCheckout | undefined, launcher: CheckoutFirst | undefined, agent: RunningAgent, exitCode: number | null | undefined): Promise<string | undefined> {
  if (!checkout || !launcher || exitCode !== CHECKOUT_FAILED_STATUS) return undefined;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([agent.logEnded, new Promise<void>((done) => { timer = setTimeout(done, LOG_WAIT_MS); })]);
  clearTimeout(timer);
  const failure = launcher.failure(agent.recentLog());
  if (!failure) return undefined;
  // Nothing runs in the worktree: its launcher ended before it became the agent.
  await checkout.abandon();
  const said = failure.stderr === '' ? '.' : `:\n${failure.stderr}`;
  return failure.step === 'copy'
    ? `The task's index could not be copied into its sandbox's git dir${said}\nResubmit the task to try again.`
    : `The task's files could not be checked out in its new worktree (git reset --hard exited with ${failure.exitCode})${said}\nResubmit the task to try again; a full disk or a lock file left in the repository's .git are the usual causes.`;
}
