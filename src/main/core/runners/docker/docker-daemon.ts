// One Docker daemon as a runner (docker, cluster) reaches it: connected once, when first needed; named in messages by
// where it is; a daemon that does not answer said the same way in Settings and in a task's error.
import { isDeskError } from '../../../../shared/desk-error';
import type { RunnerState } from '../../../../shared/runners';
import { runnerUnavailable } from '../runner-set';
import { connectDocker, type DockerClient } from './docker-client';

export interface DockerDaemon {
  /** The daemon's address for messages: the configured host, `DOCKER_HOST`, or the local socket. */
  readonly where: string;
  /** The client, connected at the first call. */
  client(): Promise<DockerClient>;
  /** The client once the daemon answers a ping; `runner_unavailable` saying where Docker could not be reached. */
  reach(): Promise<DockerClient>;
  /** What Settings shows of a daemon that did not answer. */
  unreachable(error: unknown): Pick<RunnerState, 'available' | 'detail'>;
  /** Runs `work` with the daemon if it answers; with none, nothing of ours runs there either (Settings says why). */
  sweep(work: (client: DockerClient) => Promise<unknown>): Promise<void>;
}

/** `connect`: tests pass a client already connected; default: dockerode on `host`, else `DOCKER_HOST`. */
export function dockerDaemon(host: string | undefined, connect?: () => Promise<DockerClient>): DockerDaemon {
  let connected: Promise<DockerClient> | undefined;
  const where = host ?? process.env.DOCKER_HOST ?? 'the local Docker socket';
  const client = () => (connected ??= (connect ?? (() => connectDocker(host)))());
  const cannotReach = (error: unknown) => `Docker at ${where} cannot be reached: ${(error as Error).message}`;
  return {
    where,
    client,
    async reach() {
      try {
        const reached = await client();
        await reached.ping();
        return reached;
      } catch (error) {
        throw isDeskError(error) ? error : runnerUnavailable(cannotReach(error));
      }
    },
    unreachable: (error) => ({ available: false, detail: cannotReach(error) }),
    async sweep(work) {
      try {
        await work(await client());
      } catch {
        // Nothing to sweep where nothing can run.
      }
    },
  };
}
