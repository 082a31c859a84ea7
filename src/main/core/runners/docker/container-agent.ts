// The agent as the main process of its container: its stdin/stdout over one attached connection (the Engine API's
// multiplexed stream, split into stdout and stderr here), its exit from the daemon, and its end by force removal.
import { PassThrough, type Duplex } from 'node:stream';
import type Dockerode from 'dockerode';
import type { AgentExit, RunningAgent } from '../../agents/agent-process';

const KEPT_LOG_LINES = 20;
/** How long a removed container's exit may take to be reported before the desk stops waiting. */
const STOP_LIMIT_MS = 2500;

export async function startContainerAgent(docker: Dockerode, options: Dockerode.ContainerCreateOptions, onLogLine?: (line: string) => void): Promise<RunningAgent> {
  const container = await docker.createContainer(options);
  let removal: Promise<boolean> | undefined;
  /** Kills and removes in one call, once; every caller waits for that one. True when the daemon confirmed it. */
  const remove = () => (removal ??= container.remove({ force: true }).then(
    () => true,
    // 404: the daemon already removed it (AutoRemove after the agent exited); 409: its removal is under way.
    (error: { statusCode?: number }) => error.statusCode === 404,
  ));
  try {
    const stream = await container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true }) as unknown as Duplex;
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    docker.modem.demuxStream(stream, stdout, stderr);
    stream.on('end', () => { stdout.end(); stderr.end(); });
    stream.on('error', () => { stdout.end(); stderr.end(); });
    const log: string[] = [];
    // readline is loaded with the first agent, not at the desk's start.
    process.getBuiltinModule('node:readline').createInterface({ input: stderr, crlfDelay: Infinity }).on('line', (line) => {
      log.push(line);
      if (log.length > KEPT_LOG_LINES) log.shift();
      onLogLine?.(line);
    });
    // Asked before the start, so an agent that exits at once is still seen to exit (the daemon then removes it).
    const waited = container.wait({ condition: 'next-exit' }) as Promise<{ StatusCode: number }>;
    await container.start();
    const exited: Promise<AgentExit> = waited.then(
      (result) => ({ code: result.StatusCode, signal: result.StatusCode === 137 ? 'SIGKILL' as const : null }),
      () => ({ code: null, signal: 'SIGKILL' as const }),
    );
    void exited.then(() => { stdout.end(); stderr.end(); });
    return {
      where: `container ${container.id.slice(0, 12)}`,
      // Its removal takes the daemon a moment of its own: a cancelled container is removed at once, not after a grace.
      cancelGraceMs: 0,
      stdin: stream,
      stdout,
      exited,
      recentLog: () => log.join('\n'),
      async stop() {
        stream.end();
        // Removed by force, the container and its processes are gone: waiting for the exit report adds nothing.
        if (!(await remove())) await Promise.race([exited, new Promise((resolve) => { setTimeout(resolve, STOP_LIMIT_MS).unref(); })]);
        stream.destroy();
      },
    };
  } catch (error) {
    await remove();
    throw error;
  }
}
