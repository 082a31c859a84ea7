// The dev servers of a desk's tasks: at most one per task, started from its panel, stopped by a person, by the
// task's cancel, its cleanup (rejected, archived) or a new run (queued again), and by the desk's shutdown.
import type { DevServerConfig, DevServerState } from '../../../shared/dev-server';
import { DeskError } from '../../../shared/desk-error';
import type { TaskEvent } from '../../../shared/events';
import type { TaskSummary } from '../../../shared/task';
import type { TaskIsolation } from '../sandbox/task-sandbox';
import { launchDevServer, type DevServerProcess } from './dev-server-process';

export interface DevServerDeps {
  /** The task's worktree, undefined while it has none; throws `task_not_found`. */
  worktreeOf(taskId: string): string | undefined;
  /** The dev server its repository names (`.desk/config.json`, else the repository's settings). */
  configOf(taskId: string): Promise<DevServerConfig | undefined>;
  /** The task's confinement, as its agent gets it, and the agent's environment. */
  isolate(taskId: string, worktree: string): Promise<{ isolation: TaskIsolation; env: Record<string, string> }>;
  record(taskId: string, event: TaskEvent): void;
  nodePath: string;
  forwarderEntry?: string;
}

export interface DevServerService {
  /** Starts the task's dev server, or answers the one already running (`created: false`). */
  start(taskId: string): Promise<{ created: boolean; state: DevServerState }>;
  /** Its state, or null when it never started since the desk did. */
  state(taskId: string): DevServerState | null;
  /** Stops it (every process, the port freed); answers its final state, or null when none ran. */
  stop(taskId: string): Promise<DevServerState | null>;
  /** The task changed: the server of a task cancelled, queued again, rejected or archived is stopped. */
  taskChanged(task: TaskSummary): void;
  stopAll(): Promise<void>;
}

const notConfigured = (taskId: string) => new DeskError('conflict', 'dev_server_not_configured',
  `Task ${taskId}'s repository names no dev server: add "devServer": {"command": "npm run dev", "portEnv": "PORT"} to its .desk/config.json (or its setup in Settings).`);
const noWorktree = (taskId: string) => new DeskError('conflict', 'no_worktree',
  `Task ${taskId} has no worktree (not started yet, or retired): its dev server can run once the task has one.`);

/**
 * Whether a task's change ends its dev server: the person stopped the task, or its worktree is going away (rejected,
 * archived) or may be replaced (queued again: a rerun or a resubmission starts from a fresh worktree; a follow-up
 * keeps it, but the desk cannot tell them apart from here, so the person starts the server again after it).
 */
export function endsDevServer(task: Pick<TaskSummary, 'status' | 'review' | 'archived'>): boolean {
  return task.status === 'cancelled' || task.status === 'queued' || task.review === 'rejected' || task.archived === true;
}

export function createDevServerService(deps: DevServerDeps): DevServerService {
  const servers = new Map<string, DevServerProcess>();
  const starting = new Map<string, Promise<DevServerProcess>>();
  const starts = new Map<string, number>();
  let closed = false;

  const takenPorts = () => new Set([...servers.values()].filter((s) => s.state().state !== 'exited').map((s) => s.port));

  async function launch(taskId: string): Promise<DevServerProcess> {
    const worktree = deps.worktreeOf(taskId);
    if (worktree === undefined) throw noWorktree(taskId);
    const config = await deps.configOf(taskId);
    if (!config) throw notConfigured(taskId);
    const { isolation, env } = await deps.isolate(taskId, worktree);
    const count = (starts.get(taskId) ?? 0) + 1;
    starts.set(taskId, count);
    try {
      return await launchDevServer({
        config, worktree, isolation, env, terminalId: `dev-server-${count}`, taken: takenPorts(), nodePath: deps.nodePath, record: (event) => deps.record(taskId, event),
        ...(deps.forwarderEntry !== undefined && { forwarderEntry: deps.forwarderEntry }),
      });
    } catch (error) {
      await isolation.dispose();
      throw error;
    }
  }

  async function stop(taskId: string): Promise<DevServerState | null> {
    await starting.get(taskId)?.catch(() => undefined);
    const server = servers.get(taskId);
    if (!server) return null;
    await server.stop();
    return server.state();
  }

  return {
    async start(taskId) {
      if (closed) throw new DeskError('unavailable', 'desk_closing', 'The desk is shutting down; start the dev server after it is back.');
      const pending = starting.get(taskId);
      if (pending) return { created: false, state: (await pending).state() };
      const existing = servers.get(taskId);
      if (existing && existing.state().state !== 'exited') return { created: false, state: existing.state() };
      const started = launch(taskId);
      starting.set(taskId, started);
      try {
        const server = await started;
        servers.set(taskId, server);
        return { created: true, state: server.state() };
      } finally {
        starting.delete(taskId);
      }
    },
    state: (taskId) => {
      deps.worktreeOf(taskId); // 404 for an unknown task
      return servers.get(taskId)?.state() ?? null;
    },
    stop(taskId) {
      deps.worktreeOf(taskId);
      return stop(taskId);
    },
    taskChanged(task) {
      if (endsDevServer(task) && (servers.has(task.id) || starting.has(task.id))) void stop(task.id);
    },
    async stopAll() {
      closed = true;
      await Promise.all([...new Set([...servers.keys(), ...starting.keys()])].map((id) => stop(id)));
    },
  };
}
