// A new worktree's files checked out by the agent's own launcher instead of a git process of the desk's. Every
// process the desk starts is a fork of its large process: the fork's page tables, the copy-on-write faults that
// follow it and simple-git's work for the command cost the desk about 2 ms of CPU here, of some 25 a short task
// costs it. The launcher is a fork the desk makes anyway; a `sh` in front of it runs the checkout (a fork of the
// small shell) and then becomes the launcher. The agent cannot run before its files are there: the shell execs the
// launcher only once the checkout succeeded.
import { randomUUID } from 'node:crypto';
import type { GitInvocation } from './git-runner';
import { wordsAt } from './shell-first-words';

/** What the shell runs before the agent's launcher. */
export interface CheckoutStep {
  /** `env`'s absolute path: git gets exactly the invocation's environment, not the agent's. */
  envProgram: string;
  /** git's absolute path, as found on the invocation's PATH. */
  gitProgram: string;
  invocation: GitInvocation;
  /**
   * The index the checkout writes (`from`), copied where the agent's git reads its index (`to`, the task's own git dir
   * in the sandbox, ../git/task-git-dir.ts), which the sandbox made before the index existed.
   */
  copyIndex?: { from: string; to: string };
}

/** The launcher with the checkout in front, and how to tell from the agent's log that the checkout failed. */
export interface CheckoutFirst {
  command: string;
  args: string[];
  /** The shell's note of a failure in `log` (the agent's stderr): which step, git's exit code, what was printed before. */
  failure(log: string): CheckoutFailure | undefined;
}

export interface CheckoutFailure {
  step: 'checkout' | 'copy';
  /** git's exit code (for the checkout). */
  exitCode?: number;
  stderr: string;
}

/** The shell's status when the checkout failed: the agent never ran, so no status of its own is mistaken for it. */
export const CHECKOUT_FAILED_STATUS = 125;

/**
 * `sh -c` that runs the checkout (stdin closed, stdout dropped, stderr to the agent's log), copies the index when
 * asked, then execs `command`. A failure ends the shell with one last line on stderr, `<mark> <git's exit code>`: the
 * mark is random per launch, so nothing git prints can pass for it. Every argument travels as one of the shell's
 * parameters, never in its script.
 */
export function checkoutFirst(step: CheckoutStep, command: string, args: readonly string[]): CheckoutFirst {
  const mark = `desk-checkout-failed-${randomUUID()}`;
  const checkout = [step.envProgram, '-i'].concat(environmentWords(step.invocation.env), step.gitProgram, step.invocation.args);
  const copy = step.copyIndex ? [step.copyIndex.from, step.copyIndex.to] : ['', ''];
  return {
    command: '/bin/sh',
    // One concat, not spreads: the argument list runs to a few hundred words (the environment, bubblewrap's mounts).
    args: ['-c', checkoutScript(checkout.length), 'desk-checkout', mark].concat(checkout, copy, command, args),
    failure: (log) => failureNoted(mark, log),
  };
}

/** The shell's note of a failure at the end of `log`, in a line of its own starting with `mark`; else undefined. */
function failureNoted(mark: string, log: string): CheckoutFailure | undefined {
  const end = `${mark} `;
  const at = log.lastIndexOf(end);
  if (at === -1 || (at > 0 && log[at - 1] !== '\n')) return undefined;
  const said = /^(\d+|copy)\s*$/.exec(log.slice(at + end.length))?.[1];
  if (said === undefined) return undefined;
  const stderr = log.slice(0, at).trim();
  return said === 'copy' ? { step: 'copy', stderr } : { step: 'checkout', exitCode: Number(said), stderr };
}

/**
 * `NAME=value` words for `env -i`. A name `env` could take for an option or cut wrongly (a leading `-`, an `=`) is
 * left out: no variable git reads is named so.
 */
function environmentWords(env: Readonly<Record<string, string>>): string[] {
  return Object.entries(env).filter(([name]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)).map(([name, value]) => `${name}=${value}`);
}

/**
 * The script for a checkout of `words` words. Parameters: the mark, the checkout's words, the index to copy and where
 * (both empty for none), then the launcher (./shell-first-words.ts).
 */
function checkoutScript(words: number): string {
  return [
    'm=$1',
    `${wordsAt(2, words)} </dev/null >/dev/null || { s=$?; printf '%s %s\\n' "$m" "$s" >&2; exit ${CHECKOUT_FAILED_STATUS}; }`,
    `from=\${${words + 2}}; to=\${${words + 3}}; shift ${words + 3}`,
    `if [ -n "$to" ]; then cat -- "$from" > "$to" || { printf '%s copy\\n' "$m" >&2; exit ${CHECKOUT_FAILED_STATUS}; }; fi`,
    'exec "$@"',
  ].join('\n');
}
