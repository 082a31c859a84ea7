// The runner a task's processes start through: "start this command for this task, isolated; end it whole".
// With bubblewrap every process (the agent, each terminal) gets the task's confined view of the machine and a
// PID namespace that dies with it; without, the desk says so and runs them as plain children.
import { agentCacheDir } from '../agents/agent-installs';
import { mkdir } from 'node:fs/promises';
import { existsSync, rmSync } from 'node:fs';
import { realMounts, resolverDirs } from './real-mounts';
import { dirname, join } from 'node:path';
import type { AgentPolicy } from '../../../shared/governance';
import type { SandboxKind, SandboxStatus } from '../../../shared/sandbox';
import type { AgentSpec } from '../agents/agent-spec';
import { bwrapArguments, type SandboxLayout } from './bwrap-arguments';
import { createStateLayers, type StateLayers } from './state-layers';
import { findNamespaceTools } from './state-namespace';
import type { TaskLayers } from './task-layers';
import { endLeftoverSandboxes } from './leftover-sandboxes';
import { dataDirRunFolders, foldersInMemory, runPlaces, sweepRunFolders, type RunFolderRoots } from './run-folders';
import { diskFolderFiles, memoryFolderFiles } from './run-folder-files';
import { expandHome, isWithin, sandboxMounts } from './sandbox-layout';
import { openRunNetwork, type AllowlistNetwork, type McpRelay } from './network/run-network';
import { linkedGitDir, worktreeLinkChanged } from './linked-git-dir';
import { agentEnvironment } from '../agents/agent-environment';
import { planStateScratch, scratchMounts } from './state-files';
import { fillStateScratch, hostEntriesOf, returnStateFiles } from './state-scratch';
import { visibleIn, withoutShownLinks } from './read-view';
import { createFixedViews } from './fixed-view';
import { hostKindOf } from './view-facts';
import { agentSandboxView } from './agent-view';
import type { AgentSandboxView } from '../../../shared/sandbox-view';
import { DeskError } from '../../../shared/desk-error';
import { createGitRunner, type GitRunner } from '../git/git-runner';
import { openTaskGitDir } from '../git/task-git-dir';
import { createRefSnapshots } from '../git/ref-snapshot';
import { TaskGitDirRefused } from '../git/task-git-dir-plan';
import type { TaskLimitGroup, TaskLimits } from './limits/task-limits';
import type { NetworkBridge } from './network/network-bridge';
import type { SpareProcesses } from '../host/spare-processes';
import { createSpareTempDirs, newRunId } from './spare-temp-dirs';

/** How one task's processes are started. */
export interface TaskIsolation {
  /** `container`: a runner's container confines the task instead (src/main/core/runners). */
  readonly kind: SandboxKind | 'container';
  /** One line for the task's log: what confines it, or why nothing does. */
  readonly description: string;
  /** Variables every process of the task gets on top of the agent's environment (its temp dir). */
  readonly env: Readonly<Record<string, string>>;
  /**
   * The program and arguments that run `command` confined, in `cwd` (default: the worktree); `terminal` for a
   * process under a pseudo-terminal.
   */
  wrap(command: string, args: readonly string[], options?: { terminal?: boolean; cwd?: string }): { command: string; args: string[] };
  /**
   * Ends what the isolation holds (the network proxy), takes the agent's own commits onto the task's branch when
   * they check out (see ../git/task-git-dir.ts), and removes the task's temp dir.
   */
  dispose(): Promise<void>;
  /** After dispose: the commit the agent made itself that the desk took onto the task's branch, if any. */
  agentCommit?(): string | undefined;
  /**
   * The index the agent's git reads when it is not the worktree's own (the task's git dir, copied from the worktree's
   * when the run was isolated): a checkout made after that copies the worktree's new index here.
   */
  readonly agentIndex?: string;
  /** Where the desk reaches a path of the worktree when not by the path itself: a layer (./task-layers.ts), through its holder. */
  readonly reach?: (path: string) => string;
  /** Processes waiting to become what `wrap` returns (the desk's own programs, which exist): no fork of the desk then. */
  readonly spares?: Pick<SpareProcesses, 'take'>;
}

export interface TaskSandboxDeps {
  /** Read at each run: a desk that started from remembered answers updates it in place once they are checked. */
  status: SandboxStatus;
  /** Resolves once `status` and `limits` hold live answers (machine-check.ts); each run waits for it. */
  machineChecked?: () => Promise<void>;
  dataDir: string;
  /** Where runs keep their folders (./run-folders.ts); default: the data dir. */
  runFolders?: RunFolderRoots;
  /** The repository's common git dir (absolute, real). */
  gitCommonDir: string;
  home: string;
  policyFor(agentId: string): Pick<AgentPolicy, 'sandbox' | 'network' | 'readablePaths' | 'hiddenPaths' | 'limits'>;
  /** Memory, process and CPU limits per task (./limits); without, tasks run unbounded. */
  limits?: TaskLimits;
  allowlistNetwork?: AllowlistNetwork;
  /** The relay to the desk's MCP server for agents without the host's network (./network/mcp-relay.ts). */
  mcpRelay?: McpRelay;
  /** Runs a command behind the bridge to the proxy and the relay (./network/network-bridge.ts); needed with either. */
  bridge?: NetworkBridge;
  /** The desk's log, told when sandboxes of an earlier run were ended. */
  log?(line: string): void;
  /** The desk's environment, which agents take their variables from (default: this process's). */
  environment?: NodeJS.ProcessEnv;
  /** The desk's git for the task's own git dir (default: one with hooks off, like the git service's). */
  git?: GitRunner;
  /** Each task's own layer of its agent's state (./state-layers.ts); default: in the data dir, overlays where possible. */
  stateLayers?: StateLayers;
  /** Processes started ahead of need, which a sandboxed agent's launcher is taken from (../host/spare-processes.ts). */
  spares?: Pick<SpareProcesses, 'take'>;
  /** Tasks whose worktree is a layer over a snapshot of their base (./task-layers.ts): their processes run where it is mounted. */
  taskLayers?: Pick<TaskLayers, 'open'>;
}

const sandboxUnavailable = (message: string) => new DeskError('unavailable', 'sandbox_unavailable', message);

export interface TaskSandbox {
  readonly status: SandboxStatus;
  /** Ends the sandboxes a killed desk left running and removes their temp dirs; called before any task of this desk runs. */
  sweep(): Promise<void>;
  /** After the desk's last run has ended: removes the runs' folder root when it is a memory one (the data dir's stays). */
  close(): void;
  /** Whether the agent's tasks run confined, as cards show it. */
  confines(agentId: string): boolean;
  /**
   * The isolation for one run of a task. Throws `sandbox_unavailable` when the policy requires a sandbox
   * this machine lacks, and `worktree_tampered` when the worktree's `.git` no longer leads into the repository.
   */
  isolate(request: IsolationRequest): Promise<TaskIsolation>;
  /** What the agent's tasks see, for Settings: laid out by the same planner as `isolate`. */
  viewOf(agent: AgentSpec): AgentSandboxView;
  /** Removes a task's layers of agent state: its worktree is gone, so no later turn can continue from them. */
  forgetState(taskId: string): Promise<void>;
}

export interface IsolationRequest {
  taskId: string;
  worktree: string;
  agent: AgentSpec;
  /** Tells the task's activity; `warn` unless said otherwise (what the person meant, such as a refused vendor host, is `info`). */
  log(line: string, level?: 'info' | 'warn'): void;
  /** The repository's shared git dir, when the desk has several; else the one the sandbox was made for. */
  gitCommonDir?: string;
  /** The desk's MCP server the agent is given (a loopback URL): reachable from inside the sandbox too. */
  mcpUrl?: string;
  /** The task's first turn: the agent's state starts again from the person's, not from an earlier submission's. */
  fresh?: boolean;
}

export function createTaskSandbox(deps: TaskSandboxDeps): TaskSandbox {
  const { status } = deps;
  const git = deps.git ?? createGitRunner({ hooksDir: join(deps.dataDir, 'no-hooks') });
  const refSnapshots = createRefSnapshots(git);
  const confines = (agentId: string) => status.available && deps.policyFor(agentId).sandbox !== 'off';
  const fixedViews = createFixedViews();
  const runFolders = deps.runFolders ?? dataDirRunFolders(deps.dataDir);
  const folderFiles = foldersInMemory(runFolders) ? memoryFolderFiles : diskFolderFiles;
  // Where the temp dir is a folder of its own on the disk (the run's other folders in memory), it is made ahead.
  const spareTemps = foldersInMemory(runFolders) ? createSpareTempDirs(runFolders.temp) : undefined;
  const stateLayers = deps.stateLayers ?? createStateLayers({ dataDir: deps.dataDir, tools: findNamespaceTools((deps.environment ?? process.env).PATH ?? '') });

  return {
    status,
    confines,
    async sweep() {
      const ended = await endLeftoverSandboxes(deps.dataDir);
      if (ended > 0) deps.log?.(`Ended ${ended} sandboxed process${ended === 1 ? '' : 'es'} that a stopped desk left running.`);
      sweepRunFolders(runFolders, deps.dataDir);
      await deps.limits?.sweep();
    },
    close() {
      spareTemps?.close();
      if (foldersInMemory(runFolders)) rmSync(runFolders.folders, { recursive: true, force: true });
    },
    forgetState: (taskId) => stateLayers.remove(taskId),
    viewOf(agent) {
      const environment = deps.environment ?? process.env;
      return agentSandboxView({ status, dataDir: deps.dataDir, runFolders, gitCommonDir: deps.gitCommonDir, home: deps.home, environment, agent, policy: deps.policyFor(agent.id) });
    },
    async isolate({ worktree, agent, log, mcpUrl, fresh, ...request }) {
      await deps.machineChecked?.();
      // The repository the task works in, when the desk has several; else the one it was made for.
      const gitCommonDir = request.gitCommonDir ?? deps.gitCommonDir;
      const policy = deps.policyFor(agent.id);
      // Opened last, so that a refusal on the way leaves no group behind.
      const openLimits = () => deps.limits?.open({ taskId: request.taskId, policy: policy.limits, log });
      // A worktree that is a layer exists only where the sandbox is made: an unsandboxed run would see an empty folder.
      if ((policy.sandbox === 'off' || !status.available) && await deps.taskLayers?.open(worktree).catch(() => undefined)) {
        throw sandboxUnavailable(`This task's worktree is a copy-on-write layer, which only a sandboxed run can enter, and ${policy.sandbox === 'off' ? 'the policy now turns the sandbox off for this agent' : `this machine has no sandbox now (${status.reason ?? 'no reason given'})`}. Turn the sandbox back on for the agent, or resubmit the task to start it in a checkout; its committed work stays on its branch.`);
      }
      if (policy.sandbox === 'off') return unconfined('Unsandboxed: the policy turns the sandbox off for this agent.', await openLimits());
      if (!status.available) {
        if (policy.sandbox === 'required') {
          throw sandboxUnavailable(`The policy requires a sandbox and this machine has none: ${status.reason ?? ''} ${status.fix ?? ''}`.trim());
        }
        return unconfined(`Unsandboxed: ${status.reason ?? 'no sandbox on this machine'} ${status.fix ?? ''}`.trim(), await openLimits());
      }

      // A worktree that is a layer is mounted in a namespace of its own, by a holder process that takes a few ms to
      // start: started now, it mounts while the git dir and the rest are made. Awaited (and its error thrown) below.
      const layerOpening = deps.taskLayers?.open(worktree);
      layerOpening?.catch(() => undefined);
      const spareTemp = spareTemps?.take();
      const { root, tempDir, owned } = runPlaces(runFolders, spareTemp?.id ?? newRunId());
      // The temp dir is on the disk, where a new directory can take a few ms: made ahead (./spare-temp-dirs.ts), else
      // made while the rest is, and awaited where the sandbox's view is planned. The run's folders go only once it is
      // settled (else it could come after).
      const madeTemp = spareTemp ? Promise.resolve() : diskFolderFiles.mkdir(tempDir, { mode: 0o700 });
      madeTemp.catch(() => undefined);
      const removeRun = () => madeTemp.catch(() => undefined).then(() => Promise.all(owned.map((folder) => (folder === root ? folderFiles : diskFolderFiles).removeTree(folder).catch(() => undefined))));
      const taskGit = await (async () => {
        const worktreeGitDir = await linkedGitDir(worktree, gitCommonDir);
        await folderFiles.mkdir(root, { mode: 0o700 });
        return openTaskGitDir(git, { dir: join(root, 'git'), commonDir: gitCommonDir, worktree, worktreeGitDir, files: folderFiles }, refSnapshots);
      })().catch(async (error: unknown) => {
        await removeRun();
        if (error instanceof TaskGitDirRefused) throw worktreeLinkChanged(`The task's worktree ${worktree} cannot run: ${error.message}. Resubmit the task to start again.`);
        throw error;
      });
      // What the run makes from here on is undone if a later step fails: a run that never starts leaves no socket
      // served, no overlay held, no cgroup and no folder behind.
      const made: (() => Promise<unknown>)[] = [];
      try {
        let agentCommit: string | undefined;
        // An agent given a HOME of its own (agents.json `env`) keeps its state there.
        const agentHome = agent.env.HOME ?? deps.home;
        const stateDirs = (agent.stateDirs ?? []).map((dir) => expandHome(dir, agentHome));
        for (const dir of stateDirs) await mkdir(dir, { recursive: true }).catch(() => undefined);
        const stateFiles = (agent.stateFiles ?? []).map((file) => expandHome(file, agentHome));
        for (const file of stateFiles) await mkdir(dirname(file), { recursive: true }).catch(() => undefined);
        const loginFiles = (agent.loginFiles ?? []).map((file) => expandHome(file, agentHome));
        // Read-only only works on what exists: an `info/attributes` written later would steer every worktree.
        if (!existsSync(join(gitCommonDir, 'info'))) await mkdir(join(gitCommonDir, 'info'), { recursive: true }).catch(() => undefined);

        const agentEnv = agentEnvironment(deps.environment ?? process.env, agent);
        const net = await openRunNetwork(
          { agent, policyHosts: policy.network, agentEnv, agentHome, stateDirs, mcpUrl, netDir: join(root, 'net'), folderFiles, log },
          { ...(deps.allowlistNetwork && { allowlistNetwork: deps.allowlistNetwork }), ...(deps.mcpRelay && { mcpRelay: deps.mcpRelay }) },
        );
        made.push(() => net.close());
        const { proxy, relay } = net;

        // The home hidden but for toolchains, /tmp the task's own (./read-view.ts).
        const environment = deps.environment ?? process.env;
        // The read view is the same for every task of the agent: remembered (./fixed-view.ts); the layout is the task's.
        const fixed = fixedViews.viewFor({ home: deps.home, agent, policy, environment });
        // What the task writes to the agent's state lands in a layer of its own (./state-layers.ts).
        // The state's overlays go in a copy of the worktree layer's namespace.
        const [worktreeLayer] = await Promise.all([layerOpening, madeTemp]);
        const state = await stateLayers.open({
          taskId: request.taskId, agentId: agent.id, stateDirs, stateFiles, loginFiles, fresh: fresh === true, log,
          ...(worktreeLayer && { within: worktreeLayer.namespace }),
        });
        made.push(() => state.release());
        const baseMounts = withoutShownLinks([...sandboxMounts({
            home: deps.home,
            dataDir: deps.dataDir,
            gitCommonDir,
            taskGitDir: taskGit,
            worktree,
            tempDir,
            // Overlays are mounted at the state dirs themselves, which are then bound writable; copies take their place.
            stateDirs: state.mode === 'overlay' ? stateDirs : [],
            readablePaths: policy.readablePaths,
            extraWritable: [...(proxy?.bindPaths ?? []), ...(relay?.bindPaths ?? [])],
            // Agents installed from Settings live in the data dir, which is hidden: their cache comes back read-only.
            keepReadable: [
              agentCacheDir(deps.dataDir), ...(net.mode === 'host' ? resolverDirs() : []),
              // The bridge's own programs, wherever the desk is installed (under /tmp or the home, both hidden).
              ...(proxy || relay ? deps.bridge?.places() ?? [] : []),
            ],
            // The task's own places are new each run: asked afresh, never remembered.
            kindOf: (path) => ([worktree, root, tempDir, ...stateDirs].some((own) => isWithin(path, own)) ? hostKindOf(path) : fixed.kindOf(path)),
        }), ...fixed.readView(tempDir), ...state.mounts]);
        // State files live in a scratch copy of their directory (the home); the task's layer keeps what the run changed.
        const scratch = planStateScratch({
          stateFiles,
          writable: [worktree, tempDir, ...stateDirs],
          mountedPaths: baseMounts.map((mount) => mount.path),
          scratchRoot: join(root, 'state'),
          // Only what the view shows of the directory comes back (not the rest of a hidden home).
          entriesOf: (dir) => hostEntriesOf(dir).filter((entry) => visibleIn(baseMounts, join(dir, entry.name))),
        });
        const layout: SandboxLayout = {
          bwrap: status.path ?? 'bwrap',
          cwd: worktree,
          network: net.mode,
          newSession: true,
          mounts: realMounts([...baseMounts, ...scratchMounts(scratch)]),
          ...(state.entered && { ownIds: { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 } }),
        };
        const writablePlaces = [...stateDirs, ...stateFiles];
        const limitsOpening = openLimits();
        made.push(async () => (await limitsOpening)?.close());
        const [stateBefore, limits] = await Promise.all([fillStateScratch(scratch, state.keptFileOf), limitsOpening]);
        return {
          kind: 'bubblewrap',
          description: `Sandboxed (${status.version ?? 'bubblewrap'}): sees its own /tmp and of the home only its toolchains; writes only to the worktree, its own git dir (the repository's objects read-only, its refs out of reach), its temp dir${writablePlaces.length > 0 ? ` and its own ${state.mode === 'overlay' ? 'layer over' : 'copy of'} ${writablePlaces.join(', ')} (nothing written there reaches your home${loginFiles.length > 0 ? ' but a refreshed login' : ''})` : ''}; ${net.note}.${limits?.description ? ` ${limits.description}` : ''}`,
          env: { TMPDIR: tempDir, TMP: tempDir, TEMP: tempDir },
          wrap(command, args, options = {}) {
            // The agent and the workspace's setup commands get the relay; terminals a person or agent opens do not.
            const flags = [...(proxy?.bridgeFlags ?? []), ...(relay && !options.terminal ? relay.bridgeFlags : [])];
            const inner = bridged(deps.bridge, command, args, flags, agentEnv.PATH);
            const confined = bwrapArguments({ ...layout, newSession: !options.terminal, cwd: options.cwd ?? worktree, ...(inner.env && { env: inner.env }) }, inner.command, inner.args);
            // Into the namespace that holds the state overlays, where bubblewrap makes the sandbox from.
            const entered = state.enter(layout.bwrap, confined);
            // Outside bubblewrap: the cgroup tree is read-only inside, and the join happens before the sandbox exists.
            return limits ? limits.wrap(entered.command, entered.args) : entered;
          },
          async dispose() {
            // Independent steps side by side: a run's end waits for the slowest of them, not for their sum.
            await net.close();
            // Every process of the sandbox has ended: what the agent's git left can no longer change.
            const [taken, problems, stateLines] = await Promise.all([
              taskGit.takeCommits(log).catch((error: unknown) => {
                log(`The agent's own commits were not taken: ${error instanceof Error ? error.message : String(error)}. The files it left are committed as the turn's work.`);
                return undefined;
              }),
              returnStateFiles(scratch, stateBefore, state.destinationsOf),
              state.release(),
            ]);
            agentCommit = taken;
            for (const line of [...problems, ...stateLines]) log(line);
            // Both read from the root (the task's git dir, the state scratch): it goes once they are done.
            await Promise.all([removeRun(), limits?.close()]);
          },
          agentCommit: () => agentCommit,
          agentIndex: join(taskGit.dir, 'index'),
          ...(worktreeLayer && { reach: worktreeLayer.deskPath }),
          ...(deps.spares && { spares: launchingIn(deps.spares, foldersInMemory(runFolders) ? root : undefined) }),
        };
      } catch (error) {
        // Side by side (each undo is the end of one thing), then the folders, which the state's scratch is in.
        await Promise.all(made.map((undo) => undo().catch(() => undefined)));
        await removeRun();
        throw error;
      }
    },
  };
}

/**
 * The spares, with the run's folder for a long launch to be written to (../host/spare-processes.ts) when that folder is
 * in memory: it is private to the user, out of the sandbox's view, and goes with the run, as the launch's environment
 * does from the process's own /proc entry when it ends.
 */
function launchingIn(spares: Pick<SpareProcesses, 'take'>, runFolder: string | undefined): Pick<SpareProcesses, 'take'> {
  return runFolder === undefined ? spares : { take: (launch) => spares.take({ ...launch, launchDir: runFolder }) };
}

/** One bridge for both ways out (./network/network-bridge.ts decides whether it runs in the command's own Node). */
function bridged(bridge: NetworkBridge | undefined, command: string, args: readonly string[], flags: readonly string[], searchPath: string | undefined): { command: string; args: string[]; env?: Record<string, string> } {
  if (flags.length === 0) return { command, args: [...args] };
  if (!bridge) throw new Error('Network: this sandbox has a proxy or MCP relay but no bridge to reach it; give createTaskSandbox a `bridge`.');
  return bridge.launch(command, args, flags, searchPath);
}

function unconfined(description: string, limits: TaskLimitGroup | undefined): TaskIsolation {
  return {
    kind: 'none',
    description: limits?.description ? `${description} ${limits.description}` : description,
    env: {},
    wrap: (command, args) => (limits ? limits.wrap(command, args) : { command, args: [...args] }),
    dispose: async () => { await limits?.close(); },
  };
}
