// One run of one task: worktree with its dependencies merged, the agent's turn over ACP, then the commit.
import type { AgentUpdate, TaskEvent } from '../../../shared/events';
import { startAcpSession } from '../agents/acp-session';
import { agentEnvironment } from '../agents/agent-environment';
import { spawnAgent, type AgentExit, type AgentProcess } from '../agents/agent-process';
import type { AgentRegistry } from '../agents/agent-registry';
import type { PermissionOutcome, PermissionRequest } from '../agents/agent-session';
import { createJsonRpcPeer, JsonRpcError, PeerClosedError } from '../agents/json-rpc-peer';
import { createWorktreeFiles } from '../agents/worktree-files';
import { MergeConflictError } from '../git/git-errors';
import type { GitService } from '../git/git-service';
import type { TaskPatch, TaskRecord } from '../store/tasks-repo';
import { commitMessageFor } from './commit-message';

export type RunOutcome =
  | { status: 'completed'; commit: string }
  | { status: 'error'; message: string }
  | { status: 'cancelled' };

export interface RunContext {
  task: TaskRecord;
  signal: AbortSignal;
  git: GitService;
  agents: AgentRegistry;
  clientVersion: string;
  /** Stores facts of the run (branch, worktree, pid, session) on the task. */
  update(patch: TaskPatch): void;
  record(event: TaskEvent): void;
  /** Decides an agent's permission request (the governance policy, later a person). */
  decidePermission(request: PermissionRequest): Promise<PermissionOutcome>;
}

/** How long a cancelled agent may take to end its turn by itself before its process tree is killed. */
const CANCEL_GRACE_MS = 400;

export async function runTask(context: RunContext): Promise<RunOutcome> {
  const { task, signal, git } = context;
  const log = (text: string, level: 'info' | 'warn' | 'error' = 'info') => context.record({ type: 'log', level, source: 'desk', text });

  const spec = context.agents.get(task.agent);
  if (!spec) return { status: 'error', message: `No agent "${task.agent}" is configured.` };

  let worktree: { path: string; branch: string };
  try {
    const dependencyBranches = task.dependencies.map((id) => git.branchFor(id));
    log(dependencyBranches.length > 0
      ? `Preparing a worktree from ${task.baseBranch} with ${dependencyBranches.join(', ')} merged in`
      : `Preparing a worktree from ${task.baseBranch}`);
    worktree = await git.prepareWorktree({ taskId: task.id, baseBranch: task.baseBranch, dependencyBranches });
  } catch (error) {
    if (error instanceof MergeConflictError) return { status: 'error', message: error.message };
    throw error;
  }
  context.update({ branch: worktree.branch, worktreePath: worktree.path });
  if (signal.aborted) return { status: 'cancelled' };

  const agent = await spawnAgent({
    command: spec.command,
    args: spec.args,
    cwd: worktree.path,
    env: agentEnvironment(process.env, spec),
    onLogLine: (line) => context.record({ type: 'log', level: 'info', source: 'agent', text: line }),
  });
  context.update({ agentPid: agent.pid });
  log(`Started ${spec.name} (pid ${agent.pid}) in ${worktree.path}`);
  try {
    const turn = await converse(context, agent, worktree.path);
    if (signal.aborted) return { status: 'cancelled' };
    if (turn.status !== 'ended') return turn;
  } finally {
    await agent.stop();
    context.update({ agentPid: null });
  }

  const commit = await git.commitAll(worktree.path, commitMessageFor(task.id, task.prompt));
  log(`Committed ${commit.slice(0, 12)} on ${worktree.branch}`);
  return { status: 'completed', commit };
}

/** Runs the ACP session and the turn; `ended` means the agent finished its turn well. */
async function converse(context: RunContext, agent: AgentProcess, cwd: string): Promise<RunOutcome | { status: 'ended' }> {
  const { signal } = context;
  const peer = createJsonRpcPeer(agent.child.stdout, agent.child.stdin);
  peer.onNoise((line) => context.record({ type: 'log', level: 'warn', source: 'agent', text: `(not JSON-RPC) ${line}` }));
  void agent.exited.then((exit) => peer.close(new PeerClosedError(describeExit(exit, agent.recentLog()))));

  const files = createWorktreeFiles(cwd);
  let session: Awaited<ReturnType<typeof startAcpSession>> | undefined;
  const onAbort = () => {
    session?.cancel();
    // A well-behaved agent answers the cancel by ending its turn; the rest is cut short by the kill.
    setTimeout(() => void agent.stop(), CANCEL_GRACE_MS).unref();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    session = await startAcpSession(peer, { cwd, clientVersion: context.clientVersion }, {
      onUpdate: (update: AgentUpdate) => context.record({ type: 'agent', update }),
      handlers: {
        requestPermission: (request) => context.decidePermission(request),
        readTextFile: (request) => files.readTextFile(request),
        writeTextFile: (request) => files.writeTextFile(request),
      },
    });
    context.update({ sessionId: session.sessionId });
    if (signal.aborted) return { status: 'cancelled' };
    const turn = await session.prompt(context.task.prompt);
    switch (turn.stopReason) {
      case 'end_turn':
        return { status: 'ended' };
      case 'cancelled':
        return signal.aborted ? { status: 'cancelled' } : { status: 'error', message: 'The agent cancelled its turn.' };
      case 'refusal':
        return { status: 'error', message: 'The agent refused the prompt.' };
      default:
        return { status: 'error', message: `The agent stopped before finishing (${turn.stopReason}).` };
    }
  } catch (error) {
    if (signal.aborted) return { status: 'cancelled' };
    if (error instanceof PeerClosedError) {
      // Output closes a moment before the exit is reported; the exit code says more.
      const exit = await Promise.race([agent.exited, new Promise<undefined>((resolve) => { setTimeout(resolve, 1000); })]);
      return { status: 'error', message: exit ? describeExit(exit, agent.recentLog()) : error.message };
    }
    if (error instanceof JsonRpcError) return { status: 'error', message: `The agent failed: ${error.message}` };
    if (error instanceof Error) return { status: 'error', message: error.message };
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function describeExit(exit: AgentExit, recentLog: string): string {
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const tail = recentLog.split('\n').slice(-5).join('\n').trim();
  return `The agent ${how}${tail ? `: ${tail}` : ''}`;
}
