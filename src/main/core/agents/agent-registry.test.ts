import { describe, expect, it } from 'vitest';
import { agentState, createAgentRegistry, type AgentCatalog } from './agent-registry';
import type { AgentSpec } from './agent-spec';
import { KNOWN_AGENTS } from './known-agents';

const spec = (id: string, command: string, extra: Partial<AgentSpec> = {}): AgentSpec => ({
  id, name: id, command, args: [], dialect: 'acp', envAllowlist: [], env: {}, ...extra,
});

const scripted = spec('scripted', '/usr/bin/node', { args: ['/desk/scripted-agent.js'] });
const catalog = (extra: Partial<AgentCatalog> = {}): AgentCatalog => ({
  scripted, builtins: KNOWN_AGENTS, custom: [], searchDirs: ['/desk/node_modules/.bin'], env: { PATH: '/usr/bin' }, ...extra,
});
/** A machine where node and these programs exist. */
const machine = (...files: string[]) => ({ platform: 'linux' as const, isExecutable: (path: string) => ['/usr/bin/node', ...files].includes(path) });

describe('createAgentRegistry', () => {
  it('lists the scripted agent first, then every known agent, with availability', () => {
    const registry = createAgentRegistry(catalog(), machine('/usr/bin/gemini'));
    const agents = registry.describe('scripted');
    expect(agents.map((agent) => agent.id)).toEqual([
      'scripted', 'claude-agent-acp', 'claude-code-acp', 'gemini', 'codex-acp', 'opencode', 'qwen', 'copilot', 'cline', 'auggie',
    ]);
    expect(agents.find((agent) => agent.id === 'scripted')).toMatchObject({ source: 'builtin', available: true, resolvedPath: '/usr/bin/node', isDefault: true });
    expect(agents.find((agent) => agent.id === 'gemini')).toMatchObject({
      command: 'gemini', args: ['--acp'], dialect: 'acp', available: true, resolvedPath: '/usr/bin/gemini', isDefault: false,
      envAllowlist: expect.arrayContaining(['GEMINI_API_KEY', 'GOOGLE_API_KEY']),
    });
  });

  it('says why an agent is not available and how to install it', () => {
    const codex = createAgentRegistry(catalog(), machine()).describe('scripted').find((agent) => agent.id === 'codex-acp');
    expect(codex).toMatchObject({ available: false });
    expect(codex?.resolvedPath).toBeUndefined();
    expect(codex?.reason).toBe('"codex-acp" was not found on PATH or in /desk/node_modules/.bin; install it with "npm install -g @agentclientprotocol/codex-acp"');
  });

  it('describes one agent alone as it describes it among all, looking only for its program', () => {
    const looked: string[] = [];
    const registry = createAgentRegistry(catalog(), { platform: 'linux', isExecutable: (path) => { looked.push(path); return false; } });
    const all = registry.describe('codex-acp');
    looked.length = 0;
    expect(registry.describeOne('codex-acp', 'codex-acp')).toEqual(all.find((agent) => agent.id === 'codex-acp'));
    expect(looked.length).toBeGreaterThan(0);
    expect(looked.every((path) => path.endsWith('/codex-acp'))).toBe(true);
    expect(registry.describeOne('nobody', 'scripted')).toBeUndefined();
  });

  it('finds an agent in an extra bin dir and launches it by its absolute path', () => {
    const registry = createAgentRegistry(catalog(), machine('/desk/node_modules/.bin/opencode'));
    expect(registry.get('opencode')).toMatchObject({ command: '/desk/node_modules/.bin/opencode', args: ['acp'] });
  });

  it('still gives the spec of an agent that is not installed, so the task fails with the reason', () => {
    expect(createAgentRegistry(catalog(), machine()).get('auggie')).toMatchObject({ command: 'auggie', args: ['--acp'] });
    expect(createAgentRegistry(catalog(), machine()).get('nobody')).toBeUndefined();
  });

  it('lets agents.json override a built-in and add its own', () => {
    const custom = [spec('gemini', '/opt/gemini', { args: ['--acp', '--model', 'pro'] }), spec('mine', 'my-agent', { dialect: 'auto' })];
    const agents = createAgentRegistry(catalog({ custom }), machine('/opt/gemini')).describe('mine');
    expect(agents.find((agent) => agent.id === 'gemini')).toMatchObject({ source: 'config', command: '/opt/gemini', args: ['--acp', '--model', 'pro'], available: true });
    expect(agents.filter((agent) => agent.id === 'gemini')).toHaveLength(1);
    expect(agents.at(-1)).toMatchObject({ id: 'mine', source: 'config', dialect: 'auto', available: false, isDefault: true });
    expect(agents.at(-1)?.reason).toBe('"my-agent" was not found on PATH or in /desk/node_modules/.bin');
  });

  it('adds the ad-hoc agent last', () => {
    const adHoc = spec('ad-hoc', '/work/agent.sh', { dialect: 'auto' });
    const registry = createAgentRegistry(catalog({ adHoc }), machine('/work/agent.sh'));
    expect(registry.describe('ad-hoc').at(-1)).toMatchObject({ id: 'ad-hoc', source: 'ad-hoc', available: true, isDefault: true });
    expect(registry.list().map((agent) => agent.id)).toContain('ad-hoc');
  });

  it('looks programs up when asked, so an agent installed later is found without a restart', () => {
    const installed = new Set(['/usr/bin/node']);
    const registry = createAgentRegistry(catalog(), { platform: 'linux', isExecutable: (path) => installed.has(path) });
    expect(registry.describe('scripted').find((agent) => agent.id === 'qwen')?.available).toBe(false);
    installed.add('/usr/bin/qwen');
    expect(registry.describe('scripted').find((agent) => agent.id === 'qwen')?.available).toBe(true);
  });

  it('never shows the variables an agent is given, only the names it may receive', () => {
    const custom = [spec('mine', '/usr/bin/node', { env: { TOKEN: 'secret' }, envAllowlist: ['MY_KEY'] })];
    const mine = createAgentRegistry(catalog({ custom }), machine()).describe('scripted').find((agent) => agent.id === 'mine');
    expect(JSON.stringify(mine)).not.toContain('secret');
    expect(mine?.envAllowlist).toEqual(['MY_KEY']);
  });
});

describe('an agent\'s state and package', () => {
  it('is not installed, installed, needs a login or ready, from what the desk learnt', () => {
    expect(agentState(false, { test: { agentId: 'a', outcome: 'ready', message: '', durationMs: 1, at: '' } })).toBe('not-installed');
    expect(agentState(true, {})).toBe('installed');
    expect(agentState(true, { login: { agentId: 'a', agentName: 'A', agentMessage: '', methods: [], message: '' } })).toBe('needs-login');
    expect(agentState(true, { test: { agentId: 'a', outcome: 'ready', message: '', durationMs: 1, at: '' } })).toBe('ready');
    expect(agentState(true, { test: { agentId: 'a', outcome: 'failed', message: '', durationMs: 1, at: '' } })).toBe('installed');
  });

  it('keeps offering Gemini CLI file writes without reads when agents.json replaces its entry, unless the entry says otherwise', () => {
    const replaced = createAgentRegistry(catalog({ custom: [spec('gemini', 'gemini', { args: ['--acp'], env: { GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:4000' } })] }), machine());
    const chosen = createAgentRegistry(catalog({ custom: [spec('gemini', 'gemini', { fileMethods: { readTextFile: true, writeTextFile: true } })] }), machine());
    expect(replaced.get('gemini')?.fileMethods).toEqual({ readTextFile: false, writeTextFile: true });
    expect(chosen.get('gemini')?.fileMethods).toEqual({ readTextFile: true, writeTextFile: true });
    expect(replaced.get('codex-acp')?.fileMethods).toBeUndefined();
  });

  it('installs a known agent\'s package, or the one agents.json names for it', () => {
    const plain = createAgentRegistry(catalog(), machine());
    expect(plain.npmPackageOf('gemini')).toBe('@google/gemini-cli');
    expect(plain.npmPackageOf('scripted')).toBeUndefined();
    const overridden = createAgentRegistry(catalog({ custom: [spec('gemini', 'gemini', { args: ['--acp'], npmPackage: '/tmp/gemini.tgz' }), spec('mine', 'mine')] }), machine());
    expect(overridden.npmPackageOf('gemini')).toBe('/tmp/gemini.tgz');
    expect(overridden.npmPackageOf('mine')).toBeUndefined();
    expect(overridden.describe('scripted').find((agent) => agent.id === 'gemini')).toMatchObject({ state: 'not-installed', npmPackage: '/tmp/gemini.tgz' });
  });
});
