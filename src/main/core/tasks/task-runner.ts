// One turn of one task: the worktree (fresh with dependencies merged, or the task's own for a follow-up),
// the agent's turn over ACP or Kandev, then the commit.
import { access } from 'node:fs/promises';
import type { AgentUpdate, TaskEvent } from '../../../shared/events';
import { agentEnvironment } from '../agents/agent-environment';
import { spawnAgent, type RunningAgent } from '../agents/agent-process';
import type { AgentRegistry } from '../agents/agent-registry';
import type { AgentSpec } from '../agents/agent-spec';
import type { AgentSession, ElicitationRequest, ElicitationResponse, PermissionOutcome, PermissionRequest } from '../agents/agent-session';
import { agentChannel } from '../agents/agent-channel';
import { connectAgent } from '../agents/connect-agent';
import { INVALID_PARAMS, JsonRpcError, PeerClosedError } from '../../../shared/json-rpc-peer';
import { createTerminalHost, type TerminalHost } from '../agents/terminal-host';
import { createWorktreeFiles } from '../agents/worktree-files';
import type { GitService } from '../git/git-service';
import type { LayerBase } from '../git/prepared-worktree';
import { leftOutText } from '../git/vendor-local-files';
import { JUDGE_N, type TaskPatch, type TaskRecord } from '../store/tasks-repo';
import { commitMessageFor } from './commit-message';
import { createTextTail } from './text-tail';
import type { WorkspaceSetup } from '../workspace/workspace-setup';
import { type IsolationRequest, type TaskIsolation } from '../sandbox/task-sandbox';
import { launchedThrough, type AgentFiles, type RunnerIsolation } from '../runners/runner';
import { isDeskError } from '../../../shared/desk-error';
import { isAuthRequired } from '../agents/agent-auth';
import { modelFailureMessage, retryNotice, watchTurnFailure } from '../agents/in-band-trouble';
import { agentFailureMessage, endpointLine, modelEndpoints, stallNotice } from './agent-trouble';
import { createTurnFailures, noChangesOf } from './turn-failures';
import { endpointsInFiles } from './endpoint-files';
import type { ChangeCount, CheckResult, NoChanges } from '../../../shared/task';
import { checkTurn } from './turn-check';
import { watchQuiet, type QuietTimer, type RunWatch } from './run-watch';
import type { McpServerEntry } from '../../../shared/mcp';
import type { CapabilityMode } from '../../../shared/governance';
import type { RunStage } from './run-timings';
import { checkoutFirst, type CheckoutFirst } from '../git/checkout-first';
import type { PendingCheckout } from '../git/pending-checkout';
import { checkoutForLauncher, launcherCheckoutFailure } from './launcher-checkout';
import { applyConfinedMode } from './session-mode';
import { loginWanted } from './login-wanted';
import { followUpWithContext } from './follow-up-prompt';
import { describeExit } from './agent-exit';

export type RunOutcome =
  /** `commit` for a turn that changed files; `noChanges` (and no commit) for one that ended well but changed none. */
  | { status: 'completed'; commit: string; output: string; noChanges?: undefined; changes?: ChangeCount; check?: CheckResult }
  | { status: 'completed'; commit?: undefined; output: string; noChanges: NoChanges; changes?: undefined; check?: CheckResult }
  | { status: 'error'; message: string; output?: string }
  | { status: 'cancelled'; output?: string };

export interface RunContext {
  task: TaskRecord;
  /** Which turn this is and what to say; turn 1 is the task's own prompt. */
  turn: { number: number; prompt: string };
  signal: AbortSignal;
  git: GitService;
  /** The branch a task's work is on: the one recorded on it, else the name the git service gives it. */
  branchOf(taskId: string): string;
  /** The dependencies merged into a fresh worktree (those in the task's repository); default: all of them. */
  dependenciesToMerge?: readonly string[];
  agents: AgentRegistry;
  clientVersion: string;
  /** Stores facts of the run (branch, worktree, pid, session) on the task. */
  update(patch: TaskPatch): void;
  record(event: TaskEvent): void;
  /** The live session, for mode and option changes while the agent works. */
  onSession(session: AgentSession | undefined): void;
  /** Governance, then a person if needed: whether the agent may do what it asks. */
  decidePermission(request: PermissionRequest, worktree: string): Promise<PermissionOutcome>;
  /** A question for a person (after governance). */
  elicit(request: ElicitationRequest): Promise<ElicitationResponse>;
  /** Governance for a terminal command, waiting for a person if the policy says to ask; throws (to the agent) when refused. */
  authorizeCommand(commandLine: string, worktree: string, commandCwd?: string): Promise<void>;
  /** Governance for a file read or write; throws (to the agent) when refused. */
  authorizeFile(access: { kind: 'read' | 'edit'; path: string }, worktree: string): Promise<void>;
  /** The repository's setup for a new worktree and its check after each turn (`.desk/config.json`). */
  workspace: Pick<WorkspaceSetup, 'setUp' | 'config'>;
  /** The repository's cleanup in the worktree an earlier run left, before a new one replaces it. */
  cleanUpPrevious(): Promise<void>;
  /** How the agent and its terminals are started: confined to the task by the sandbox, where there is one. */
  isolate(request: IsolationRequest): Promise<TaskIsolation & Partial<Pick<RunnerIsolation, 'startAgent' | 'files' | 'terminals' | 'collect'>>>;
  /** The agent going quiet, who it says it is, a login it wants (filled by the core; absent in some tests). */
  watch?: RunWatch;
  /** The desk's MCP server for this run (its URL and this task's token), handed to agents that take HTTP MCP servers. */
  mcp?: McpServerEntry;
  /** What the policy says of the agent's commands (`execute`), for the mode it is confined in; default `allow`. */
  commandMode?: CapabilityMode;
  /** Notes each stage the run reaches (run-timings.ts); absent in tests that do not ask. */
  mark?(stage: RunStage): void;
  /**
   * Whether the task's agent is a process the desk starts in the worktree on this machine (the local runner). A new
   * worktree's files may then be checked out by the agent's launcher (../git/checkout-first.ts), and a new worktree
   * that is a layer is mounted by the desk's own holder, started as soon as the layer exists. Otherwise the desk checks
   * the files out first, and a layer is mounted where the runner makes the agent's view.
   */
  agentOnThisMachine?: boolean;
  /**
   * A read-only snapshot of the base branch's commit, for a new worktree that is a copy-on-write layer over it instead
   * of a checkout (../sandbox/task-layers.ts); absent, or undefined back, where the task gets a checkout.
   */
  snapshotFor?(request: { baseBranch: string; log(line: string): void }): Promise<LayerBase | undefined>;
}

/**
 * What a turn keeps of the agent's messages for its record: the end, where agents sum up. The whole stream
 * is in the task's events; holding all of it here would let an agent that writes without end kill the desk.
 */
const KEPT_OUTPUT_CHARS = 100_000;

/** How long a cancelled agent may take to end its turn by itself before its process tree is killed. */
const CANCEL_GRACE_MS = 400;

export async function runTask(given: RunContext): Promise<RunOutcome> {
  // Every event of the turn passes the failure log on its way, so a turn that changes nothing can say what failed.
  const failures = createTurnFailures();
  const context: RunContext = { ...given, record: (event) => { failures.see(event); given.record(event); } };
  const { task, signal, git, turn } = context;
  const log = (text: string, level: 'info' | 'warn' | 'error' = 'info') => context.record({ type: 'log', level, source: 'desk', text });

  const spec = context.agents.get(task.agent);
  if (!spec) return { status: 'error', message: `No agent "${task.agent}" is configured.` };

  let worktree: string;
  let checkout: PendingCheckout | undefined;
  let layered = false;
  // What the task's diff starts from, for the totals its card shows once this turn commits.
  let baseCommit = task.baseCommit;
  if (turn.number === 1) {
    try {
      const dependencyBranches = (context.dependenciesToMerge ?? task.dependencies).map((id) => context.branchOf(id));
      log(dependencyBranches.length > 0
        ? `Preparing a worktree from ${task.baseBranch} with ${dependencyBranches.join(', ')} merged in`
        : `Preparing a worktree from ${task.baseBranch}`);
      if (task.worktreePath) await context.cleanUpPrevious();
      // Dependencies merged in make a commit of the task's own: such a worktree is a checkout, as before.
      const snapshot = dependencyBranches.length === 0 ? await context.snapshotFor?.({ baseBranch: task.baseBranch, log: (line) => log(line) }) : undefined;
      const prepared = await git.prepareWorktree({ taskId: task.id, baseBranch: task.baseBranch, dependencyBranches, deferCheckout: context.agentOnThisMachine === true, mountLayer: context.agentOnThisMachine === true, ...(snapshot && { snapshot }) });
      layered = prepared.layered === true;
      if (layered) log(`The worktree is a copy-on-write layer over the snapshot of ${task.baseBranch} at ${prepared.baseCommit.slice(0, 12)}: no checkout of its own`);
      context.update({ branch: prepared.branch, worktreePath: prepared.path, baseCommit: prepared.baseCommit });
      worktree = prepared.path;
      checkout = prepared.checkout;
      baseCommit = prepared.baseCommit;
    } catch (error) {
      if (isDeskError(error, 'merge_conflict') || isDeskError(error, 'branch_taken')) return { status: 'error', message: error.message };
      throw error;
    }
  } else {
    worktree = task.worktreePath ?? git.worktreePathFor(task.id);
    const exists = await access(worktree).then(() => true, () => false);
    if (!exists) return { status: 'error', message: `The task's worktree ${worktree} is gone; resubmit the task to start again.` };
    log(`Turn ${turn.number}: continuing in ${worktree}`);
  }
  context.mark?.('worktree');
  if (signal.aborted) return { status: 'cancelled' };

  let isolation: Awaited<ReturnType<RunContext['isolate']>>;
  try {
    isolation = await context.isolate({ taskId: task.id, worktree, agent: spec, log: (line, level = 'warn') => log(line, level), fresh: turn.number === 1, ...(context.mcp && { mcpUrl: context.mcp.url }) });
  } catch (error) {
    if (isDeskError(error, 'sandbox_unavailable') || isDeskError(error, 'worktree_tampered') || isDeskError(error, 'runner_unavailable')) return { status: 'error', message: error.message };
    throw error;
  }
  context.mark?.('sandbox');
  log(isolation.description, isolation.kind === 'none' ? 'warn' : 'info');
  const env = { ...agentEnvironment(process.env, spec), ...isolation.env };
  const said = createTextTail(KEPT_OUTPUT_CHARS);
  try {
    if (turn.number === 1) {
      // The repository's own setup (`.desk/config.json`): confined like the agent, before the agent sees the worktree.
      const pending = checkout;
      const setup = await context.workspace.setUp({ worktree, isolation, env, record: context.record, log: (text) => log(text), signal, copied: layered, ...(pending && { filesReady: () => pending.now() }) });
      if (signal.aborted) return { status: 'cancelled' };
      if (setup.failed) return { status: 'error', message: setup.failed };
    }
    const onLogLine = (line: string) => context.record({ type: 'log', level: 'info', source: 'agent', text: line });
    // A new worktree's files, when nothing has needed them yet, are checked out by the agent's launcher before it
    // becomes the agent: one process fewer from the desk (../git/checkout-first.ts).
    const step = await checkoutForLauncher(checkout, isolation);
    let launcher: CheckoutFirst | undefined;
    const launchThrough = step && ((launch: { command: string; args: string[] }) => (launcher = checkoutFirst(step, launch.command, launch.args)));
    // A runner starts the agent its own way (a container); the sandbox alone only says how to wrap the command.
    const agent = isolation.startAgent
      ? await isolation.startAgent({ command: spec.command, args: spec.args, cwd: worktree, env, onLogLine, ...(launchThrough && { launchThrough }) })
      : await spawnAgent({ ...launchedThrough(isolation.wrap(spec.command, spec.args), launchThrough), program: spec.command, cwd: worktree, env, onLogLine, ...(isolation.spares && { spares: isolation.spares }) });
    context.mark?.('spawned');
    if (agent.pid !== undefined) context.update({ agentPid: agent.pid });
    log(`Started ${spec.name} (${agent.where}) in ${worktree}`);
    const terminals = isolation.terminals?.({ record: context.record, baseEnv: env })
      ?? createTerminalHost({ worktree, baseEnv: env, record: context.record, wrap: (command, args, cwd) => isolation.wrap(command, args, { terminal: true, cwd }), ...(isolation.reach && { reach: isolation.reach }) });
    try {
      const confined = isolation.kind !== 'none';
      const endpoints = [...modelEndpoints(env), ...await endpointsInFiles(spec.endpointFiles, env)];
      const ended = await converse(context, agent, worktree, spec, { terminals, files: isolation.files ?? createWorktreeFiles(worktree, isolation.reach && { reach: isolation.reach }), confined, endpoints }, said.append);
      if (signal.aborted) return { status: 'cancelled', output: said.text() };
      if (ended.status !== 'ended') {
        const checkoutFailed = await launcherCheckoutFailure(checkout, launcher, agent);
        return checkoutFailed === undefined ? { ...ended, output: said.text() } : { status: 'error', message: checkoutFailed };
      }
      // An agent on a disk of its own hands its work back while it is still there to do so.
      const collected = await isolation.collect?.().then(() => undefined, (error: unknown) => (error instanceof Error ? error.message : String(error)));
      if (collected !== undefined) return { status: 'error', message: collected, output: said.text() };
    } finally {
      context.onSession(undefined);
      await terminals.disposeAll();
      await agent.stop();
      context.update({ agentPid: null });
    }
  } finally {
    await isolation.dispose();
  }

  context.mark?.('stopped');
  // A judge's turn is read for its answer: its worktree is discarded, never committed nor checked (attempt-judging.ts).
  if (task.attemptOf?.n === JUDGE_N) return { status: 'completed', output: said.text(), noChanges: { summary: 'The judge\'s turn is not committed.', failed: [] } };
  const extra: Record<string, string> = turn.number > 1 ? { Turn: String(turn.number) } : {};
  let commit: string | undefined;
  try {
    const message = commitMessageFor(task.id, turn.prompt, extra);
    // An agent's vendor-local files (its own settings, e.g. standing permissions) stay in the worktree, out of the commit.
    const leftOut = await git.leaveOutLocalFiles(worktree);
    if (leftOut.length > 0) log(leftOutText(leftOut));
    // A merge from the base waiting on conflicts is committed even when the agent's resolution changed nothing.
    // Commits the agent made itself, taken onto the branch when the sandbox ended, are the turn's work when no file is left over.
    commit = (task.conflict ? await git.commitAll(worktree, message) : await git.commitChanges(worktree, message)) ?? isolation.agentCommit?.();
  } catch (error) {
    // The agent changed how its worktree links to the repository: a task error, never a commit elsewhere.
    if (isDeskError(error, 'worktree_tampered')) return { status: 'error', message: error.message, output: said.text() };
    throw error;
  }
  context.mark?.('committed');
  const noChanges = commit === undefined ? noChangesOf(spec.name, failures.list()) : undefined;
  if (noChanges !== undefined) {
    log(noChanges.summary, noChanges.failed.length > 0 ? 'warn' : 'info');
  } else if (commit !== undefined) {
    // A turn that ran while an update from the base waited on conflicts (the agent was asked to resolve them) has just
    // committed that merge: the task's diff starts from the merged base commit from now on.
    if (task.conflict) {
      context.update({ conflict: null, baseCommit: task.conflict.baseCommit });
      baseCommit = task.conflict.baseCommit;
    }
    log(`Committed ${commit.slice(0, 12)} on ${context.branchOf(task.id)}`);
  }
  // The card's totals: a failure to count costs the card its numbers, never the turn its commit.
  const changes = commit === undefined || baseCommit === undefined ? undefined : await git.diffStat(baseCommit, commit).catch(() => undefined);
  const check = await checkTurn(context, spec, worktree, commit ?? task.commit ?? baseCommit);
  if (check === 'cancelled') return { status: 'cancelled', output: said.text() };
  const checked = check === undefined ? {} : { check };
  return commit === undefined
    ? { status: 'completed', output: said.text(), noChanges: noChanges as NoChanges, ...checked }
    : { status: 'completed', commit, output: said.text(), ...checked, ...(changes !== undefined && { changes }) };
}

/** Runs the session and the turn; `ended` means the agent finished its turn well. */
async function converse(
  context: RunContext,
  agent: RunningAgent,
  cwd: string,
  spec: AgentSpec,
  { terminals, files, confined, endpoints }: { terminals: TerminalHost; files: AgentFiles; confined: boolean; endpoints: readonly string[] },
  onText: (text: string) => void,
): Promise<Exclude<RunOutcome, { status: 'completed' }> | { status: 'ended' }> {
  const { signal, turn } = context;
  const channel = agentChannel(agent.stdout, agent.stdin, (line) => context.record({ type: 'log', level: 'warn', source: 'agent', text: `(not JSON-RPC) ${line}` }));
  void agent.exited.then((exit) => channel.close(new PeerClosedError(describeExit(exit, agent.recentLog()))));

  const guarded = async <T>(access: { kind: 'read' | 'edit'; path: string }, work: () => Promise<T>): Promise<T> => {
    try {
      await context.authorizeFile(access, cwd);
      return await work();
    } catch (error) {
      if (error instanceof JsonRpcError) context.record({ type: 'log', level: 'warn', source: 'desk', text: `Refused ${access.kind} of ${access.path}: ${error.message}` });
      throw error;
    }
  };
  let session: AgentSession | undefined;
  const turnFailure = watchTurnFailure();
  let lastRetryNotice: string | undefined;
  // Set while the prompt runs: every update, request and terminal output from the agent counts as a word.
  let quiet: QuietTimer | undefined;
  const heard = <T>(value: T): T => { quiet?.word(); return value; };
  const heldUp = async <T>(work: () => Promise<T>): Promise<T> => {
    quiet?.hold(true);
    try { return await work(); } finally { quiet?.hold(false); }
  };
  const onAbort = () => {
    session?.cancel();
    // A well-behaved agent answers the cancel by ending its turn; the rest is cut short by the kill.
    setTimeout(() => void agent.stop(), agent.cancelGraceMs ?? CANCEL_GRACE_MS).unref();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const continueSessionId = turn.number > 1 ? context.task.sessionId : undefined;
    const connected = await connectAgent(channel, {
      dialect: spec.dialect,
      cwd,
      clientVersion: context.clientVersion,
      ...(spec.authMethod !== undefined && { authMethod: spec.authMethod }),
      ...(spec.fileMethods && { fileMethods: spec.fileMethods }),
      ...(continueSessionId !== undefined && { continueSessionId }),
      ...(context.mcp && { mcp: context.mcp }),
      ...(spec.handshakeTimeoutMs !== undefined && { handshakeTimeoutMs: spec.handshakeTimeoutMs }),
    }, {
      onInitialized: () => context.mark?.('initialize'),
      onUpdate: (update: AgentUpdate) => {
        context.mark?.('first-update');
        heard(update);
        turnFailure.see(update);
        const retrying = retryNotice(spec.name, update);
        // Codex repeats the same report at each attempt; the activity says it once until it changes.
        if (retrying !== undefined && retrying !== lastRetryNotice) context.record({ type: 'log', level: 'warn', source: 'desk', text: retrying });
        if (retrying !== undefined) lastRetryNotice = retrying;
        if (update.kind === 'message' && update.role === 'agent') onText(update.text);
        context.record({ type: 'agent', update });
      },
      onTerminal: (event) => context.record(event),
      handlers: {
        requestPermission: (request) => heldUp(() => context.decidePermission(request, cwd)),
        elicit: (request) => heldUp(() => context.elicit(request)),
        readTextFile: (request) => guarded({ kind: 'read', path: heard(request).path }, () => files.readTextFile(request)),
        writeTextFile: (request) => guarded({ kind: 'edit', path: heard(request).path }, () => files.writeTextFile(request)),
        terminals: {
          ...terminals,
          output: (terminalId) => heard(terminals.output(terminalId)),
          // A command the agent waits for is work, not silence.
          waitForExit: (terminalId) => heldUp(() => terminals.waitForExit(terminalId)),
          create: async (params) => {
            await heldUp(() => context.authorizeCommand([params.command, ...(params.args ?? [])].join(' '), cwd, params.cwd ?? undefined));
            // A person may answer "allow" just as the task is cancelled: a cancelled task starts nothing.
            if (context.signal.aborted) throw new JsonRpcError(INVALID_PARAMS, 'Command not run: the task was cancelled.');
            return terminals.create(params);
          },
        },
      },
    });
    session = connected;
    context.mark?.('session');
    const { agent: implementation } = connected.features;
    if (implementation) {
      context.watch?.sawAgent(implementation);
      context.record({ type: 'log', level: 'info', source: 'desk', text: `The agent is ${implementation.title ?? implementation.name} ${implementation.version}${implementation.title ? ` (${implementation.name})` : ''}.` });
    }
    context.onSession(connected);
    context.update({ sessionId: connected.sessionId, ...(implementation && { agentInfo: implementation }) });
    // Options first: an agent answers a mode change with an update of its options (codex-acp does), which must follow them.
    if (connected.features.configOptions !== undefined) context.record({ type: 'agent', update: { kind: 'other', name: 'config_options', data: connected.features.configOptions } });
    const modes = await applyConfinedMode(context, connected, spec, confined);
    if (modes !== undefined) context.record({ type: 'agent', update: { kind: 'other', name: 'session_modes', data: modes } });
    if (signal.aborted) return { status: 'cancelled' };

    const prompt = turn.number > 1 && !connected.continued ? followUpWithContext(context.task.prompt, turn.prompt) : turn.prompt;
    const { watch } = context;
    if (watch) {
      // The silence shows on the card (quietSince) and, with the agent's own last log lines, in the activity.
      const notice = (since: number) => context.record({ type: 'log', level: 'warn', source: 'desk', text: stallNotice({ agentName: spec.name, quietMs: Date.now() - since, recentLog: agent.recentLog(), endpoints }) });
      quiet = watchQuiet({
        limitMs: () => watch.quietAfterMs(),
        now: Date.now,
        onQuiet: (since) => {
          watch.setQuiet(since === undefined ? undefined : new Date(since).toISOString());
          if (since !== undefined) notice(since);
        },
        onStill: notice,
      });
    }
    const end = await connected.prompt(prompt).finally(() => quiet?.stop());
    context.mark?.('turn-ended');
    if (end.usage) context.record({ type: 'agent', update: { kind: 'turn-usage', ...end.usage } });
    switch (end.stopReason) {
      case 'end_turn': {
        // Codex ends a turn whose model requests failed as if it went well; its reason makes the task's error.
        const failed = turnFailure.failure();
        return failed === undefined ? { status: 'ended' } : { status: 'error', message: modelFailureMessage(spec.name, failed, endpoints) };
      }
      case 'cancelled':
        return signal.aborted ? { status: 'cancelled' } : { status: 'error', message: 'The agent cancelled its turn.' };
      case 'refusal':
        return { status: 'error', message: 'The agent refused the prompt.' };
      default:
        return { status: 'error', message: `The agent stopped before finishing (${end.stopReason}).` };
    }
  } catch (error) {
    if (signal.aborted) return { status: 'cancelled' };
    if (isDeskError(error, 'agent_login_required') || isAuthRequired(error)) return loginWanted(context, spec, error);
    if (error instanceof PeerClosedError) {
      // Output closes a moment before the exit is reported; the exit code says more.
      const exit = await Promise.race([agent.exited, new Promise<undefined>((resolve) => { setTimeout(resolve, 1000); })]);
      const pointed = endpointLine(endpoints);
      const message = exit ? describeExit(exit, agent.recentLog()) : error.message;
      return { status: 'error', message: pointed === undefined ? message : `${message}\n${pointed}` };
    }
    if (error instanceof JsonRpcError) {
      // What the agent wrote on stderr just before its answer is read after it: let those lines in first.
      for (let turnOfLoop = 0; turnOfLoop < 2; turnOfLoop++) await new Promise((resolve) => { setImmediate(resolve); });
      return { status: 'error', message: agentFailureMessage(error, { recentLog: agent.recentLog(), endpoints }) };
    }
    if (error instanceof Error) return { status: 'error', message: error.message };
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
