// The bridge flags prepareAllowlistNetwork hands the sandbox runner, and the task directories it cannot use.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareAllowlistNetwork } from './sandbox-network';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('prepareAllowlistNetwork', () => {
  it('names the socket to bind and the bridge flags that serve it on the sandbox\'s loopback', async () => {
    dir = mkdtempSync(join(tmpdir(), 'net-'));
    const network = await prepareAllowlistNetwork({ dir, hosts: [], log: () => undefined, port: 3128, noProxy: ['127.0.0.1'] });
    const socket = join(dir, 'egress.sock');
    expect(network.bindPaths).toEqual([socket]);
    expect(network.bridgeFlags).toEqual(['--socket', socket, '--port', '3128', '--no-proxy', '127.0.0.1']);
    await network.close();
  });

  it('has the bridge take any free port when none is named, and forward the loopback endpoints the allowlist names', async () => {
    dir = mkdtempSync(join(tmpdir(), 'net-'));
    const network = await prepareAllowlistNetwork({ dir, hosts: ['127.0.0.1:8080', 'api.example.com'], log: () => undefined });
    expect(network.bridgeFlags).toEqual(['--socket', join(dir, 'egress.sock'), '--port', '0', '--forward', '127.0.0.1:8080=127.0.0.1:8080']);
    await network.close();
  });

  it('refuses a task directory too long for a unix socket path, before starting anything', async () => {
    dir = mkdtempSync(join(tmpdir(), 'net-'));
    const deep = join(dir, 'x'.repeat(120));
    await expect(prepareAllowlistNetwork({ dir: deep, hosts: [], log: () => undefined })).rejects.toThrow(/longer than 10[37] bytes/);
  });
});
