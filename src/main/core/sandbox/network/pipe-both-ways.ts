// Two sockets joined: bytes flow both ways, and either side's error or close ends the other. Node built-ins only: the
// sandbox's bridge and the dev server's forwarder bundle it into programs that run on their own.
import type { Socket } from 'node:net';

export function pipeBothWays(client: Socket, upstream: Socket): void {
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
  client.pipe(upstream);
  upstream.pipe(client);
}
