// Settings' view of one agent's sandbox: the layout a task of this agent would get, from the same planner the
// sandbox uses, with `<task>` standing for the paths that differ from task to task.
import { join } from 'node:path';
import type { AgentPolicy } from '../../../shared/governance';
import type { AgentSandboxView } from '../../../shared/sandbox-view';
import type { SandboxStatus } from '../../../shared/sandbox';
import { agentCacheDir } from '../agents/agent-installs';
import type { AgentSpec } from '../agents/agent-spec';
import type { Mount } from './bwrap-arguments';
import { dataDirRunFolders, runPlaces, type RunFolderRoots } from './run-folders';
import { taskViewMounts } from './read-view';
import { describeView } from './sandbox-view';
import { expandHome, HIDDEN_HOME_DIRS, HIDDEN_HOME_FILES, isWithin, SOCKET_DIRS } from './sandbox-layout';
import { hostKindOf, readViewFactsFor } from './view-facts';

export interface AgentViewRequest {
  status: SandboxStatus;
  dataDir: string;
  /** Where runs keep their folders (./run-folders.ts); default: the data dir. */
  runFolders?: RunFolderRoots;
  gitCommonDir: string;
  home: string;
  environment: NodeJS.ProcessEnv;
  agent: AgentSpec;
  policy: Pick<AgentPolicy, 'sandbox' | 'readablePaths' | 'hiddenPaths'>;
}

export function agentSandboxView(request: AgentViewRequest): AgentSandboxView {
  const { status, agent, policy } = request;
  if (policy.sandbox === 'off' || !status.available) {
    const why = policy.sandbox === 'off' ? 'the policy turns the sandbox off for this agent' : status.reason ?? 'no sandbox on this machine';
    return { agentId: agent.id, confined: false, note: `Unsandboxed: ${why}. The agent sees and may change whatever you may.`, entries: [] };
  }
  const task = '<task>';
  const worktree = join(request.dataDir, 'worktrees', task);
  const { root: taskRoot, tempDir } = runPlaces(request.runFolders ?? dataDirRunFolders(request.dataDir), task);
  // The task's own git dir as ../git/task-git-dir.ts makes it for each run.
  const gitDir = join(taskRoot, 'git');
  const taskGitDir = { dir: gitDir, link: `${gitDir}.link`, readOnly: [join(gitDir, 'config'), join(gitDir, 'info'), join(gitDir, 'objects', 'info')] };
  const agentHome = agent.env.HOME ?? request.home;
  const stateDirs = (agent.stateDirs ?? []).map((dir) => expandHome(dir, agentHome));
  const stateFiles = (agent.stateFiles ?? []).map((file) => expandHome(file, agentHome));
  // What a task creates before its sandbox starts exists in this view too.
  const created = new Map<string, 'dir' | 'file'>([
    [worktree, 'dir'], [join(worktree, '.git'), 'file'], [gitDir, 'dir'], ...taskGitDir.readOnly.map((path) => [path, 'dir'] as const),
    [tempDir, 'dir'], ...stateDirs.map((dir) => [dir, 'dir'] as const),
  ]);
  const kindOf = (path: string) => created.get(path) ?? hostKindOf(path);
  const cache = agentCacheDir(request.dataDir);
  const mounts = taskViewMounts({
    home: request.home, dataDir: request.dataDir, gitCommonDir: request.gitCommonDir, taskGitDir, worktree, tempDir,
    stateDirs, readablePaths: policy.readablePaths, keepReadable: [cache], kindOf,
  }, { ...readViewFactsFor({ home: request.home, tempDir, agent, policy, environment: request.environment }), kindOf });
  const why = layoutReasons({ ...request, worktree, gitDir, tempDir, stateDirs, cache });
  const entries = [
    ...describeView(mounts, why),
    ...stateFiles.map((path) => ({ path, access: 'writable' as const, why: "the agent's state file: the task's own copy, kept for its later turns, never copied to your home" })),
  ];
  return { agentId: agent.id, confined: true, note: `Sandboxed (${status.version ?? 'bubblewrap'}); <task> stands for each task's own directory.`, entries };
}

/** Why the layout's own mounts (./sandbox-layout.ts) are there, which they do not say themselves. */
function layoutReasons(facts: {
  dataDir: string; gitCommonDir: string; home: string; worktree: string; gitDir: string; tempDir: string;
  stateDirs: readonly string[]; cache: string; policy: Pick<AgentPolicy, 'readablePaths'>;
}): (mount: Mount) => string {
  const inHome = (names: readonly string[]) => names.map((name) => join(facts.home, name));
  const grants = facts.policy.readablePaths.map((path) => expandHome(path, facts.home));
  return ({ path, kind }) => {
    if (path === facts.dataDir) return "the desk's data dir: its token, database and other tasks";
    if ([...inHome(HIDDEN_HOME_DIRS), ...inHome(HIDDEN_HOME_FILES)].includes(path)) return 'credentials';
    if (SOCKET_DIRS.includes(path)) return 'where other programs listen on sockets';
    if (path === facts.worktree) return "the task's worktree";
    if (path === facts.gitDir) return "the task's own git dir: its HEAD, index and refs";
    if (path === facts.tempDir) return "the task's temp dir";
    if (facts.stateDirs.includes(path)) return "the agent's state, as a layer of the task's own: yours below, its writes kept for its later turns and never copied to your home (but a refreshed login)";
    if (path === facts.cache) return 'agents installed from Settings';
    if (path === facts.gitCommonDir) return "the repository's git dir: the person's refs, index, HEAD, stash and reflogs";
    if (path === join(facts.gitCommonDir, 'objects')) return "the repository's objects, which the task's git borrows";
    if ([facts.gitCommonDir, facts.gitDir, facts.worktree].some((place) => isWithin(path, place))) return kind === 'read-only' ? 'what steers git or ties the worktree to the task’s git dir' : 'git';
    if (grants.includes(path)) return 'the policy’s readablePaths';
    return 'kept by the sandbox';
  };
}
