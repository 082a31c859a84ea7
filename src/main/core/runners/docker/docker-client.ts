// The Docker Engine client (dockerode), loaded on first use so a desk that never runs a container never loads it.
import type Dockerode from 'dockerode';

export type DockerClient = Dockerode;

/**
 * `host` as Docker names it: `unix:///run/docker.sock`, `tcp://host:2375`, `ssh://user@host`. Left out, dockerode
 * reads `DOCKER_HOST` (and `DOCKER_TLS_VERIFY`, `DOCKER_CERT_PATH`) itself, else uses the local socket.
 */
export function dockerOptions(host: string | undefined): Dockerode.DockerOptions | undefined {
  if (host === undefined) return undefined;
  const url = new URL(host);
  switch (url.protocol) {
    case 'unix:':
      return { socketPath: url.pathname };
    case 'tcp:':
    case 'http:':
      return { host: url.hostname, port: url.port || '2375', protocol: 'http' };
    case 'https:':
      return { host: url.hostname, port: url.port || '2376', protocol: 'https' };
    case 'ssh:':
      return { host: url.hostname, ...(url.port && { port: url.port }), ...(url.username && { username: url.username }), protocol: 'ssh' };
    default:
      throw new Error(`Docker host ${host} is not unix://, tcp://, https:// or ssh://`);
  }
}

export async function connectDocker(host: string | undefined): Promise<DockerClient> {
  const { default: Docker } = await import('dockerode');
  const options = dockerOptions(host);
  return options ? new Docker(options) : new Docker();
}
