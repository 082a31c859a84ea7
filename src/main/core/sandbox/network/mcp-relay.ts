// How a sandboxed agent without the host's network reaches the desk's MCP server: a unix socket in the task's
// private dir (bound into the sandbox) relays to the desk's port, and a bridge inside the sandbox listens on the
// same loopback port the desk has outside, so the URL given in session/new works unchanged. What arrives still needs
// the task's own MCP token, which opens /mcp and nothing else.
import { rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { bridgeLauncher } from './sandbox-network';

export interface McpRelayOptions {
  /** A private (0700) per-task directory; the relay's socket is created in it. */
  dir: string;
  /** The desk's port on 127.0.0.1, and the bridge's inside the sandbox. */
  port: number;
  /** The Node that runs the bridge inside the sandbox. */
  nodePath: string;
  bridgeEntry?: string;
}

export interface McpRelay {
  /** The command line that runs `command` behind the in-sandbox bridge to the relay. */
  wrap(command: string, args: string[]): { command: string; args: string[] };
  bindPaths: string[];
  close(): Promise<void>;
}

export async function prepareMcpRelay(options: McpRelayOptions): Promise<McpRelay> {
  const socketPath = join(options.dir, 'mcp.sock');
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(options.port, '127.0.0.1');
    open.add(client).add(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => { upstream.destroy(); open.delete(client); });
    upstream.on('close', () => { client.destroy(); open.delete(upstream); });
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const launcher = bridgeLauncher(options.bridgeEntry);
  return {
    wrap: (command, args) => ({
      command: options.nodePath,
      args: [...launcher, '--socket', socketPath, '--port', String(options.port), '--plain', '--', command, ...args],
    }),
    bindPaths: [socketPath],
    close: () => new Promise((resolve) => {
      for (const socket of open) socket.destroy();
      server.close(() => {
        rmSync(socketPath, { force: true });
        resolve();
      });
    }),
  };
}
