// The runner seam: "start this agent for this task, isolated; end it whole". `local` is the OS sandbox on this
// machine; `docker` a container; each gives a task's run the same shape, so the task runner does not care where.
import type { RunnerKind, RunnerState } from '../../../shared/runners';
import type { TaskEvent } from '../../../shared/events';
import type { RunningAgent } from '../agents/agent-process';
import type { TerminalHost } from '../agents/terminal-host';
import type { IsolationRequest, TaskIsolation } from '../sandbox/task-sandbox';

export interface StartAgentOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  onLogLine?: (line: string) => void;
  /**
   * What to start instead of the agent's launcher, given it (its checkout in front: ../git/checkout-first.ts). Only the
   * `local` runner, whose agent is a process of this machine started in the worktree, is given it.
   */
  launchThrough?(launch: { command: string; args: string[] }): { command: string; args: string[] };
}

/** What a launcher becomes with `launchThrough`, if given. */
export function launchedThrough(launch: { command: string; args: string[] }, through: StartAgentOptions['launchThrough']): { command: string; args: string[] } {
  return through ? through(launch) : launch;
}

/** One run of a task on a runner: how its agent starts, and (as before) how its terminals and setup start. */
export interface RunnerIsolation extends TaskIsolation {
  /** Starts the task's agent with its protocol on stdin/stdout; `dispose` ends whatever is left of it. */
  startAgent(options: StartAgentOptions): Promise<RunningAgent>;
  /**
   * A runner whose agent works on a disk of its own (the cluster) answers the agent's file requests and runs its
   * terminals there, after the desk's governance allowed each; without these the desk does both in the worktree.
   */
  files?: AgentFiles;
  terminals?(options: { record(event: TaskEvent): void; baseEnv: Record<string, string> }): TerminalHost;
  /** Brings the turn's work into the desk's worktree before the agent goes (the cluster's push); throws why not. */
  collect?(): Promise<void>;
}

/** The agent's `fs/*` requests, answered where the agent works. */
export interface AgentFiles {
  readTextFile(request: { path: string; line?: number; limit?: number }): Promise<string>;
  writeTextFile(request: { path: string; content: string }): Promise<void>;
}

/** What a run asks of its runner: the sandbox's request (task, worktree, agent, the repository's git dir, the MCP URL). */
export type IsolateRequest = IsolationRequest;

export interface Runner {
  readonly kind: RunnerKind;
  /** Tasks it runs at once at most. */
  readonly capacity: number;
  /** Whether tasks may be sent to it at all (a runner left out of the configuration may not). */
  readonly enabled: boolean;
  /** What Settings shows: reachable or not, and why (asks the runner; never throws). */
  state(): Promise<Pick<RunnerState, 'available' | 'detail'>>;
  /** Whether the agent's tasks run confined (a container always confines). */
  confines(agentId: string): boolean;
  /** A Docker runner's daemon as configured (its `host`, else `DOCKER_HOST`); undefined: the local socket, or no daemon. */
  readonly daemonHost?: string | undefined;
  /** Removes what a killed desk left behind on this runner; called before any task of this desk runs. */
  sweep(): Promise<void>;
  /** Throws `sandbox_unavailable`, `runner_unavailable` or `worktree_tampered` (the task ends in error). */
  isolate(request: IsolateRequest): Promise<RunnerIsolation>;
}
