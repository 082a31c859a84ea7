// Which launch each kind of agent command gets behind the sandbox's network bridge.
import { describe, expect, it } from 'vitest';
import { bridgeLaunch, nodeOfShebang, type BridgeLaunchInput } from './bridge-launch';

const FLAGS = ['--relay', '4000=/run/t/net/mcp.sock'];
const base: BridgeLaunchInput = {
  command: '', args: [], flags: FLAGS,
  nodePath: '/opt/node/bin/node',
  wrapper: ['/desk/out/main/sandbox-net-bridge.js'],
  preload: ['--require', '/desk/out/main/sandbox-net-preload.cjs'],
};
const settings = { DESK_NET_BRIDGE: JSON.stringify(FLAGS) };

describe('bridgeLaunch', () => {
  it('runs a command as it is when there is nothing to bridge', () => {
    expect(bridgeLaunch({ ...base, command: 'codex-acp', args: ['-x'], flags: [] })).toEqual({ command: 'codex-acp', args: ['-x'], kind: 'direct' });
  });

  it('loads the bridge into the scripted agent\'s own Node, its flags in the environment', () => {
    expect(bridgeLaunch({ ...base, command: '/opt/node/bin/node', args: ['/desk/out/main/scripted-agent.cjs'] })).toEqual({
      command: '/opt/node/bin/node',
      args: ['--require', '/desk/out/main/sandbox-net-preload.cjs', '/desk/out/main/scripted-agent.cjs'],
      env: settings,
      kind: 'node-preload',
    });
  });

  it('names a proxy on a fixed port in the environment the agent starts with', () => {
    const flags = ['--socket', '/run/t/net/egress.sock', '--port', '3128', '--no-proxy', '127.0.0.1'];
    const launch = bridgeLaunch({ ...base, command: '/opt/node/bin/node', args: ['agent.js'], flags });
    expect(launch.env).toMatchObject({ HTTPS_PROXY: 'http://127.0.0.1:3128', http_proxy: 'http://127.0.0.1:3128', NO_PROXY: '127.0.0.1', NODE_USE_ENV_PROXY: '1' });
  });

  it('leaves a proxy on a port still to be chosen for the preload to name', () => {
    const flags = ['--socket', '/run/t/net/egress.sock', '--port', '0'];
    expect(bridgeLaunch({ ...base, command: '/opt/node/bin/node', args: ['agent.js'], flags }).env).toEqual({ DESK_NET_BRIDGE: JSON.stringify(flags) });
  });

  it('loads the bridge into any Node a custom agent names, before its own Node options', () => {
    expect(bridgeLaunch({ ...base, command: 'node', args: ['--no-warnings', 'my-agent.js'] }).args)
      .toEqual(['--require', '/desk/out/main/sandbox-net-preload.cjs', '--no-warnings', 'my-agent.js']);
  });

  it('runs a `#!/usr/bin/env node` script on the Node found on the agent\'s PATH, with the bridge loaded', () => {
    const launch = bridgeLaunch({ ...base, command: 'gemini', args: ['--acp'], shebang: '#!/usr/bin/env node', scriptPath: '/agents/.bin/gemini', pathNode: '/usr/bin/node' });
    expect(launch).toEqual({
      command: '/usr/bin/node',
      args: ['--require', '/desk/out/main/sandbox-net-preload.cjs', '/agents/.bin/gemini', '--acp'],
      env: settings,
      kind: 'script-preload',
    });
  });

  it('keeps the one argument a `#!/path/to/node` line passes', () => {
    const launch = bridgeLaunch({ ...base, command: '/agents/a.js', shebang: '#!/usr/local/bin/node --max-old-space-size=4096', scriptPath: '/agents/a.js' });
    expect(launch.command).toBe('/usr/local/bin/node');
    expect(launch.args).toEqual(['--max-old-space-size=4096', '--require', '/desk/out/main/sandbox-net-preload.cjs', '/agents/a.js']);
  });

  it('keeps the wrapper for a binary agent, with the flags before its command line', () => {
    expect(bridgeLaunch({ ...base, command: '/agents/.bin/opencode', args: ['acp'], scriptPath: '/agents/.bin/opencode' })).toEqual({
      command: '/opt/node/bin/node',
      args: ['/desk/out/main/sandbox-net-bridge.js', ...FLAGS, '--', '/agents/.bin/opencode', 'acp'],
      kind: 'wrapper',
    });
  });

  it('keeps the wrapper for a `#!/usr/bin/env node` script when no Node is on the agent\'s PATH', () => {
    expect(bridgeLaunch({ ...base, command: 'qwen', shebang: '#!/usr/bin/env node', scriptPath: '/agents/.bin/qwen' }).kind).toBe('wrapper');
  });

  it('keeps the wrapper for a script of another interpreter', () => {
    expect(bridgeLaunch({ ...base, command: 'sh', args: ['-c', 'true'], shebang: '#!/bin/sh', scriptPath: '/bin/sh' }).kind).toBe('wrapper');
  });
});

describe('nodeOfShebang', () => {
  it('reads the Node lines the kernel would run on Node', () => {
    expect(nodeOfShebang('#!/usr/bin/env node', '/n/node')).toEqual({ node: '/n/node', args: [] });
    expect(nodeOfShebang('#! /usr/bin/node\r', undefined)).toEqual({ node: '/usr/bin/node', args: [] });
    expect(nodeOfShebang('#!/usr/bin/nodejs', undefined)).toEqual({ node: '/usr/bin/nodejs', args: [] });
  });

  it('leaves lines it cannot imitate exactly to the wrapper', () => {
    expect(nodeOfShebang('#!/usr/bin/env -S node --no-warnings', '/n/node')).toBeUndefined();
    expect(nodeOfShebang('#!/usr/bin/env bun', '/n/node')).toBeUndefined();
    expect(nodeOfShebang('#!/usr/bin/env ./node', '/n/node')).toBeUndefined();
    expect(nodeOfShebang('#!node', '/n/node')).toBeUndefined();
    expect(nodeOfShebang('#!/usr/bin/python3', '/n/node')).toBeUndefined();
  });
});
