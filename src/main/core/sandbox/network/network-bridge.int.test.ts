// Which launch the network bridge service picks for real files on disk: it reads `#!` lines and looks Node up on PATH.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNetworkBridge } from './network-bridge';

const bridge = createNetworkBridge({ nodePath: '/desk/node', wrapperEntry: '/desk/out/main/sandbox-net-bridge.js', preloadEntry: '/desk/out/main/sandbox-net-preload.cjs' });
const FLAGS = ['--relay', '4000=/t/mcp.sock'];
let dir: string;
let bin: string;

function executable(name: string, text: string | Buffer): string {
  const path = join(bin, name);
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bridge-launch-'));
  bin = join(dir, 'bin');
  mkdirSync(bin);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the network bridge service', () => {
  it('runs an npm bin (a link to a `#!/usr/bin/env node` script) on the PATH\'s Node with the bridge loaded', () => {
    const node = executable('node', '#!/bin/sh\n');
    mkdirSync(join(dir, 'pkg'));
    writeFileSync(join(dir, 'pkg', 'cli.js'), '#!/usr/bin/env node\nconsole.log(1)\n');
    chmodSync(join(dir, 'pkg', 'cli.js'), 0o755);
    symlinkSync(join(dir, 'pkg', 'cli.js'), join(bin, 'gemini'));
    const launch = bridge.launch('gemini', ['--acp'], FLAGS, `/nowhere:${bin}`);
    expect(launch).toMatchObject({ kind: 'script-preload', command: node, args: ['--require', '/desk/out/main/sandbox-net-preload.cjs', join(bin, 'gemini'), '--acp'] });
  });

  it('keeps the wrapper for a native program found on PATH', () => {
    const program = executable('opencode', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]));
    expect(bridge.launch('opencode', ['acp'], FLAGS, bin)).toMatchObject({ kind: 'wrapper', command: '/desk/node', args: ['/desk/out/main/sandbox-net-bridge.js', ...FLAGS, '--', 'opencode', 'acp'] });
    expect(bridge.launch(program, [], FLAGS, bin).kind).toBe('wrapper');
  });

  it('names the bundled files it loads, for the sandbox to keep readable wherever the desk lies', () => {
    expect(bridge.places()).toEqual(['/desk/out/main/sandbox-net-bridge.js', '/desk/out/main/sandbox-net-preload.cjs']);
  });

  it('names the whole package and its node_modules when it runs from source', () => {
    const checkout = resolve(import.meta.dirname, '../../../../..');
    const fromSource = createNetworkBridge({ nodePath: process.execPath, wrapperEntry: resolve(import.meta.dirname, 'sandbox-net-bridge.ts'), preloadEntry: resolve(import.meta.dirname, 'sandbox-net-preload.ts') });
    expect(fromSource.places().sort()).toEqual([checkout, join(checkout, 'node_modules')]);
  });

  it('keeps the wrapper for a command it cannot find, which then fails there as it would have', () => {
    expect(bridge.launch('no-such-agent', [], FLAGS, bin).kind).toBe('wrapper');
  });

  it('runs a Node script named by its path on the Node its `#!` line names', () => {
    const node = join(dir, 'node22');
    copyFileSync('/bin/sh', node);
    const script = executable('agent.mjs', `#!${node}\n`);
    expect(bridge.launch(script, [], FLAGS, '')).toMatchObject({ kind: 'script-preload', command: node });
  });
});
