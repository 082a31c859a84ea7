// The sandbox network bridge's listeners on the sandbox's own loopback, shared by the wrapper process and the preload
// that runs them inside an agent's Node: the proxy's port, the relays' ports, and the forwarded loopback endpoints.
// Node built-ins only (it loads into agents), and never a byte on stdout: that is the agent's protocol stream.
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { BridgeSettings } from './bridge-settings';
import { pipeBothWays } from './pipe-both-ways';

/** The longest proxy answer to a CONNECT we wait for before giving up on it. */
const MAX_CONNECT_REPLY = 8192;

export interface ListenOptions {
  /** Inside an agent: neither the listeners nor their connections keep the agent's process alive. */
  unref: boolean;
}

/** A listener that could not open: `essential` ones (the proxy, a relay) leave the command without its way out. */
export interface ListenFailure { address: string; port: number; essential: boolean; error: NodeJS.ErrnoException }

export interface OpenListeners {
  /** The proxy's port as it listens (a free one when asked for 0); undefined without a proxy or when it failed. */
  proxyPort: number | undefined;
  failures: ListenFailure[];
}

/**
 * Opens every listener the settings name. The named loopback ports (forwards, relays) go first, so the proxy's own
 * port (0: any free one) cannot take one of them.
 */
export async function openBridgeListeners(settings: BridgeSettings, options: ListenOptions): Promise<OpenListeners> {
  const failures: ListenFailure[] = [];
  const track = (socket: Socket): Socket => (options.unref ? socket.unref() : socket);
  const open = async (address: string, port: number, essential: boolean, onConnection: (client: Socket) => void) => {
    const server = createServer((client) => onConnection(track(client)));
    const failure = await listen(server, address, port);
    if (failure) failures.push({ address, port, essential, error: failure });
    else if (options.unref) server.unref();
    return failure ? undefined : server;
  };
  const proxy = settings.proxy;
  if (proxy) {
    await Promise.all(proxy.forwards.map((forward) => open(forward.address, forward.port, false, (client) => {
      tunnelThroughProxy(client, track(connect(proxy.socketPath)), forward.target);
    })));
  }
  await Promise.all(settings.relays.map((relay) => open('127.0.0.1', relay.port, true, (client) => pipeBothWays(client, track(connect(relay.socketPath))))));
  if (!proxy) return { proxyPort: undefined, failures };
  const server = await open('127.0.0.1', proxy.port, true, (client) => pipeBothWays(client, track(connect(proxy.socketPath))));
  return { proxyPort: server ? (server.address() as AddressInfo).port : undefined, failures };
}

function listen(server: Server, address: string, port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((done) => {
    server.once('error', done);
    server.listen(port, address, () => {
      server.off('error', done);
      // A listener that fails later (out of descriptors) must not take the agent down with it.
      server.on('error', () => undefined);
      done(undefined);
    });
  });
}

/**
 * Asks the proxy on `upstream` for a tunnel to `target`, then pipes `client` through it. Whatever the proxy refuses
 * (403: not named) ends the client's connection; the proxy logs the refusal for the person.
 */
function tunnelThroughProxy(client: Socket, upstream: Socket, target: string): void {
  client.pause();
  const fail = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', fail);
  upstream.on('error', fail);
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
  upstream.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
  let reply = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    reply = Buffer.concat([reply, chunk]);
    const end = reply.indexOf('\r\n\r\n');
    if (end < 0) {
      if (reply.length > MAX_CONNECT_REPLY) fail();
      return;
    }
    upstream.off('data', onData);
    if (!/^HTTP\/1\.[01] 200 /.test(reply.subarray(0, end).toString('latin1'))) return fail();
    const rest = reply.subarray(end + 4);
    if (rest.length > 0) client.write(rest);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  };
  upstream.on('data', onData);
}
