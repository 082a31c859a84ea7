import { describe, expect, it } from 'vitest';
import { loadAgentsConfig, parseAgentsConfig } from './agents-config';

const FILE = '/data/agents.json';
const parse = (config: unknown) => parseAgentsConfig(JSON.stringify(config), FILE);

describe('parseAgentsConfig', () => {
  it('fills in what an entry leaves out', () => {
    expect(parse({ agents: [{ id: 'mine', command: 'my-agent' }] })).toEqual([
      { id: 'mine', name: 'mine', command: 'my-agent', args: [], dialect: 'auto', envAllowlist: [], env: {} },
    ]);
  });

  it('keeps every field a person can set', () => {
    const entry = {
      id: 'gemini', name: 'Gemini (work)', command: '/opt/gemini/bin/gemini', args: ['--acp', '--model', 'pro'], dialect: 'acp',
      envAllowlist: ['GEMINI_API_KEY'], env: { GEMINI_CLI_NO_RELAUNCH: 'true' }, authMethod: 'gemini-api-key', handshakeTimeoutMs: 90_000,
    };
    expect(parse({ agents: [entry] })).toEqual([entry]);
  });

  it('keeps the state a custom agent declares, with the login files that go back to the home', () => {
    const entry = { id: 'mine', name: 'Mine', command: 'mine', args: [], dialect: 'acp', envAllowlist: [], env: {},
      stateDirs: ['~/.mine'], stateFiles: ['~/.mine.json'], loginFiles: ['~/.mine/credentials.json'] };
    expect(parse({ agents: [entry] })).toEqual([entry]);
    expect(() => parse({ agents: [{ ...entry, loginFiles: ['credentials.json'] }] })).toThrow(`${FILE}: agents[0].loginFiles[0]: must be absolute or start with ~/`);
  });

  it('keeps the file methods an entry offers its agent', () => {
    const entry = { id: 'gemini', name: 'Gemini', command: 'gemini', args: ['--acp'], dialect: 'acp', envAllowlist: [], env: {}, fileMethods: { readTextFile: false, writeTextFile: true } };
    expect(parse({ agents: [entry] })).toEqual([entry]);
  });

  it.each([
    [{ agents: [{ id: 'x' }] }, `${FILE}: agents[0].command:`],
    [{ agents: [{ id: 'x', command: 'a', dialect: 'grpc' }] }, `${FILE}: agents[0].dialect:`],
    [{ agents: [{ id: 'x', command: 'a', handshakeTimeoutMs: 30 }] }, `${FILE}: agents[0].handshakeTimeoutMs: must be at least 1000 (ms)`],
    [{ agents: [{ id: 'x', command: 'a', envAllowlist: ['OK', 'NOT OK'] }] }, `${FILE}: agents[0].envAllowlist[1]: must be an environment variable name`],
    [{ agents: [{ id: 'x', command: 'a', envAllowList: [] }] }, `${FILE}: agents[0]: Unrecognized key: "envAllowList"`],
    [{ agents: [{ id: 'x', command: './bin/agent' }] }, `${FILE}: agents[0].command: must be a program name`],
    [{ agents: [{ id: 'has space', command: 'a' }] }, `${FILE}: agents[0].id: must be letters`],
    [{ agents: [{ id: 'ad-hoc', command: 'a' }] }, `${FILE}: agents[0].id: "ad-hoc" is reserved`],
    [{ agents: [{ id: 'x', command: 'a' }, { id: 'x', command: 'b' }] }, `${FILE}: agents[1].id: "x" appears more than once`],
    [{ agent: [] }, `${FILE}: agents:`],
  ])('refuses %j, naming the file and the field', (config, message) => {
    expect(() => parse(config)).toThrow(expect.objectContaining({ code: 'agents_config_invalid' }));
    expect(() => parse(config)).toThrow(message);
  });

  it('refuses text that is not JSON', () => {
    expect(() => parseAgentsConfig('{ agents: [] }', FILE)).toThrow(`${FILE} is not valid JSON`);
  });
});

describe('loadAgentsConfig', () => {
  it('reads agents.json from the data dir', () => {
    const read = (path: string) => {
      expect(path).toMatch(/[\\/]data[\\/]agents\.json$/);
      return JSON.stringify({ agents: [{ id: 'mine', command: 'my-agent' }] });
    };
    expect(loadAgentsConfig('/data', read).map((agent) => agent.id)).toEqual(['mine']);
  });

  it('means no custom agents when there is no file', () => {
    const read = () => { throw Object.assign(new Error('missing'), { code: 'ENOENT' }); };
    expect(loadAgentsConfig('/data', read)).toEqual([]);
  });

  it('stops on a file it cannot read', () => {
    const read = () => { throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }); };
    expect(() => loadAgentsConfig('/data', read)).toThrow(/Cannot read .*agents\.json: EACCES/);
  });
});
