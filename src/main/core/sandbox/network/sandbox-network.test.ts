// The command line prepareAllowlistNetwork hands the sandbox runner, and the task directories it cannot use.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareAllowlistNetwork } from './sandbox-network';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('prepareAllowlistNetwork', () => {
  it('wraps a bundled bridge with plain node, the socket to bind, and the agent\'s own command line after --', async () => {
    dir = mkdtempSync(join(tmpdir(), 'net-'));
    const network = await prepareAllowlistNetwork({ dir, hosts: [], log: () => undefined, nodePath: '/usr/bin/node', bridgeEntry: '/desk/out/main/sandbox-net-bridge.js', port: 3128 });
    const socket = join(dir, 'egress.sock');
    expect(network.bindPaths).toEqual([socket]);
    expect(network.wrap('claude', ['--acp', '--', 'x'])).toEqual({
      command: '/usr/bin/node',
      args: ['/desk/out/main/sandbox-net-bridge.js', '--socket', socket, '--port', '3128', '--', 'claude', '--acp', '--', 'x'],
    });
    await network.close();
  });

  it('runs the bridge source through tsx, named by URL, when given the .ts file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'net-'));
    const network = await prepareAllowlistNetwork({ dir, hosts: [], log: () => undefined, nodePath: 'node', bridgeEntry: '/src/sandbox-net-bridge.ts' });
    const { args } = network.wrap('gemini', []);
    expect(args.slice(0, 3)).toEqual(['--import', expect.stringMatching(/^file:\/\/.*tsx\/dist\/loader\.mjs$/), '/src/sandbox-net-bridge.ts']);
    expect(args).toContain('0');
    await network.close();
  });

  it('refuses a task directory too long for a unix socket path, before starting anything', async () => {
    dir = mkdtempSync(join(tmpdir(), 'net-'));
    const deep = join(dir, 'x'.repeat(120));
    await expect(prepareAllowlistNetwork({ dir: deep, hosts: [], log: () => undefined, nodePath: 'node' })).rejects.toThrow(/longer than 10[37] bytes/);
  });
});
