import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { choosePort, isPortFree, preferredPort } from './port-choice';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function occupy(): Promise<number> {
  const server = createServer();
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

describe('the port the desk listens on', () => {
  it('is 1337 at first, then the one remembered', () => {
    expect(preferredPort({})).toBe(1337);
    expect(preferredPort({ port: 4555 })).toBe(4555);
  });

  it('is the preferred one when it is free', async () => {
    expect(await choosePort(4555, '127.0.0.1', async () => true)).toBe(4555);
  });

  it('is left to the OS (0) when another program holds the preferred one', async () => {
    const taken = await occupy();
    expect(await isPortFree(taken, '127.0.0.1')).toBe(false);
    expect(await choosePort(taken, '127.0.0.1')).toBe(0);
  });

  it('is found free again once the other program lets go', async () => {
    const taken = await occupy();
    await new Promise((resolve) => servers.pop()?.close(resolve));
    expect(await isPortFree(taken, '127.0.0.1')).toBe(true);
  });
});
