// How a sandboxed agent without the host's network reaches the desk's MCP server: an HTTP relay on a unix socket
// in the task's private dir (bound into the sandbox) that passes requests for /mcp to the desk's port and answers
// everything else itself, and a bridge inside the sandbox listening on the same loopback port the desk has outside,
// so the URL given in session/new works unchanged. What reaches the desk still needs the task's own MCP token.
import { rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { MCP_PATH } from '../../../../shared/mcp';

export interface McpRelayOptions {
  /** A private (0700) per-task directory; the relay's socket is created in it. */
  dir: string;
  /** The desk's port on 127.0.0.1, and the bridge's inside the sandbox. */
  port: number;
}

export interface McpRelay {
  /** The bridge's flags (./bridge-settings.ts) that bring the relay in at the desk's port. */
  bridgeFlags: string[];
  bindPaths: string[];
  close(): Promise<void>;
}

export async function prepareMcpRelay(options: McpRelayOptions): Promise<McpRelay> {
  const socketPath = join(options.dir, 'mcp.sock');
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => relay(request, response, options.port));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // No WebSocket (the events socket) through here: an upgrade is refused by closing the connection.
  server.on('upgrade', (_request, socket: Socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    bridgeFlags: ['--relay', `${options.port}=${socketPath}`],
    bindPaths: [socketPath],
    close: () => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => {
        rmSync(socketPath, { force: true });
        resolve();
      });
    }),
  };
}

/** `/mcp` goes on to the desk as it came (the desk checks the token); any other path is answered here with 404. */
function relay(request: IncomingMessage, response: ServerResponse, port: number): void {
  const path = (request.url ?? '').split('?', 1)[0];
  if (path !== MCP_PATH) {
    const body = JSON.stringify({ error: 'not_found', code: 'mcp_only', message: `From the sandbox only ${MCP_PATH} of the desk is reachable.` });
    response.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) }).end(body);
    request.resume();
    return;
  }
  const upstream = httpRequest({ host: '127.0.0.1', port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
  });
  upstream.on('error', () => response.destroy());
  response.on('close', () => upstream.destroy());
  request.pipe(upstream);
}
