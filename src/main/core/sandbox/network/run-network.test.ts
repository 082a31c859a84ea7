// How one run's ways out are chosen and opened, and that a failure on the way closes what was opened before it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diskFolderFiles } from '../run-folder-files';
import { openRunNetwork, type NetworkEnd, type RunNetworkRequest } from './run-network';

let root: string;
let closed: string[];
let logged: string[];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'desk-run-network-'));
  closed = [];
  logged = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const end = (name: string): NetworkEnd => ({ bridgeFlags: [`--${name}`], bindPaths: [join(root, name)], close: async () => { closed.push(name); } });
const request = (over: Partial<RunNetworkRequest> = {}): RunNetworkRequest => ({
  agent: { name: 'Scripted', networkHosts: ['api.example.com'] },
  policyHosts: undefined,
  agentEnv: {},
  agentHome: root,
  stateDirs: [],
  mcpUrl: 'http://127.0.0.1:4555/mcp',
  netDir: join(root, 'net'),
  folderFiles: diskFolderFiles,
  log: (line) => logged.push(line),
  ...over,
});

describe('a run\'s ways out', () => {
  it('opens the proxy for the agent\'s hosts and the relay to the desk, and closes both', async () => {
    const net = await openRunNetwork(request(), { allowlistNetwork: async () => end('proxy'), mcpRelay: async ({ port }) => end(`relay-${port}`) });
    expect([net.mode, net.note, net.proxy?.bridgeFlags, net.relay?.bridgeFlags]).toEqual(['none', 'network limited to api.example.com', ['--proxy'], ['--relay-4555']]);
    await net.close();
    expect(closed.sort()).toEqual(['proxy', 'relay-4555']);
  });

  it('shares the host\'s network when the policy opens it all, with no relay', async () => {
    const net = await openRunNetwork(request({ policyHosts: ['*'] }), { mcpRelay: async () => end('relay') });
    expect([net.mode, net.note, net.relay]).toEqual(['host', 'network open (policy)', undefined]);
  });

  it('leaves the desk\'s own port out of whatever the policy names, and says so', async () => {
    let asked: readonly string[] = [];
    await openRunNetwork(request({ policyHosts: ['127.0.0.1:4555', 'api.example.com'] }), { allowlistNetwork: async ({ hosts }) => { asked = hosts; return end('proxy'); } });
    expect(asked).toEqual(['api.example.com']);
    expect(logged.join('\n')).toContain('left out "127.0.0.1:4555"');
  });

  it('closes the proxy again when the relay cannot be opened', async () => {
    const opening = openRunNetwork(request(), { allowlistNetwork: async () => end('proxy'), mcpRelay: async () => { throw new Error('no socket'); } });
    await expect(opening).rejects.toThrow('no socket');
    expect(closed).toEqual(['proxy']);
  });
});
