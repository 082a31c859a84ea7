// The host's end of a sandboxed dev server's port: the desk listens on 127.0.0.1:<free port> (never another
// address) and carries each connection over the unix socket the in-sandbox forwarder listens on.
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { pipeBothWays } from '../sandbox/network/pipe-both-ways';

export interface HostForward {
  /** The port on the host's 127.0.0.1, held by the desk until `close`: no other task's server can get it. */
  readonly port: number;
  close(): Promise<void>;
}

export async function openHostForward(socketPath: string): Promise<HostForward> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    track(client);
    const upstream = connect(socketPath);
    track(upstream);
    // Until the forwarder listens (or after the server ended) the connection is simply closed: the port "does not answer".
    pipeBothWays(client, upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

/**
 * A port free on the host's 127.0.0.1 now, for a server that listens there itself (no sandbox): found by listening
 * on port 0 and letting go. `taken` are ports the desk already gave out, which are skipped.
 */
export async function freeLoopbackPort(taken: ReadonlySet<number>): Promise<number> {
  for (let tries = 0; tries < 20; tries++) {
    const port = await new Promise<number>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const { port: found } = probe.address() as AddressInfo;
        probe.close(() => resolve(found));
      });
    });
    if (!taken.has(port)) return port;
  }
  throw new Error('No free port on 127.0.0.1 for the dev server.');
}
