// The `local` runner: the agent runs on this machine, confined by the task sandbox exactly as before runners existed.
import { spawnAgent } from '../agents/agent-process';
import type { TaskSandbox } from '../sandbox/task-sandbox';
import { launchedThrough, type Runner } from './runner';

/** `capacity` is read each time: it is the desk's concurrency setting, which Settings changes while the desk runs. */
export function createLocalRunner(deps: { sandbox: TaskSandbox; capacity(): number }): Runner {
  const { sandbox } = deps;
  return {
    kind: 'local',
    get capacity() { return deps.capacity(); },
    enabled: true,
    state: async () => ({
      available: true,
      detail: sandbox.status.available
        ? `This machine, sandboxed (${sandbox.status.version ?? sandbox.status.kind})`
        : `This machine, unsandboxed: ${sandbox.status.reason ?? 'no sandbox here'}`,
    }),
    confines: (agentId) => sandbox.confines(agentId),
    sweep: async () => sandbox.sweep(),
    async isolate(request) {
      const isolation = await sandbox.isolate(request);
      return {
        ...isolation,
        wrap: (command, args, options) => isolation.wrap(command, args, options),
        dispose: () => isolation.dispose(),
        startAgent: (options) => spawnAgent({
          ...launchedThrough(isolation.wrap(options.command, options.args), options.launchThrough), program: options.command, cwd: options.cwd, env: options.env,
          ...(options.onLogLine && { onLogLine: options.onLogLine }),
          // Every bubblewrap command line unshares the PID namespace (../sandbox/bwrap-arguments.ts).
          pidNamespace: isolation.kind === 'bubblewrap',
          // The launcher from a process waiting for it, when the sandbox has one (../host/spare-processes.ts).
          ...(isolation.spares && { spares: isolation.spares }),
        }),
      };
    },
  };
}
