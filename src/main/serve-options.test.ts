import { describe, expect, it } from 'vitest';
import { parseServeOptions } from './serve-options';

describe('parseServeOptions', () => {
  it('fills in the defaults', () => {
    expect(parseServeOptions(['--repo', '/r'])).toEqual({
      repo: '/r', moreRepos: [], port: 1337, host: '127.0.0.1', agent: 'scripted', concurrency: 2,
      allowedOrigins: ['https://prompt-pad.danmercer.net'], allowedHosts: [],
    });
  });

  it('takes every flag', () => {
    expect(parseServeOptions(['--repo', '/r', '--port', '0', '--host', '::1', '--token', 'abcdefghijklmnop', '--data-dir', '/d', '--agent', 'x',
      '--concurrency', '3', '--base-branch', 'dev', '--allow-origin', 'https://a.example', '--allow-host', 'Desk.Lan', '--server-name', 'Mine'])).toEqual({
      repo: '/r', moreRepos: [], port: 0, host: '::1', token: 'abcdefghijklmnop', dataDir: '/d', agent: 'x', concurrency: 3, baseBranch: 'dev',
      allowedOrigins: ['https://prompt-pad.danmercer.net', 'https://a.example'], allowedHosts: ['desk.lan'], serverName: 'Mine',
    });
  });

  it('makes --agent-command the default agent, with its dialect left to detection', () => {
    expect(parseServeOptions(['--repo', '/r', '--agent-command', `node '/my agents/agent.js' --acp`])).toMatchObject({
      agent: 'ad-hoc', agentCommand: ['node', '/my agents/agent.js', '--acp'],
    });
    expect(parseServeOptions(['--repo', '/r', '--agent-command', 'my-agent'])).not.toHaveProperty('agentDialect');
  });

  it('keeps --agent as the default when both are given, and takes the dialect', () => {
    expect(parseServeOptions(['--repo', '/r', '--agent-command', 'kandev-agent', '--agent-dialect', 'kandev', '--agent', 'scripted'])).toMatchObject({
      agent: 'scripted', agentCommand: ['kandev-agent'], agentDialect: 'kandev',
    });
  });

  it('opens several repositories, the first as the default', () => {
    expect(parseServeOptions(['--repo', '/a', '--repo', '/b', '--repo', '/c'])).toMatchObject({ repo: '/a', moreRepos: ['/b', '/c'] });
  });

  it('asks for --repo', () => {
    expect(() => parseServeOptions([])).toThrow(/--repo PATH is required/);
  });

  it.each([
    [['--repo', '/r', '--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['--repo', '/r', '--port', 'abc'], /--port/],
    [['--repo', '/r', '--concurrency', '0'], /--concurrency/],
    [['--repo', '/r', '--bogus'], /Unknown option '--bogus'/],
    [['--repo', '/r', '--token', 'short'], /--token must be at least 16/],
    [['--repo', '/r', '--allow-origin', 'example.com'], /not an origin/],
    [['--repo', '/r', 'stray'], /positional/i],
    [['--repo', '/r', '--agent-command', `agent "unclosed`], /--agent-command: the double quote at position 7 is never closed/],
    [['--repo', '/r', '--agent-command', '  '], /--agent-command: the command is empty/],
    [['--repo', '/r', '--agent-command', 'a', '--agent-dialect', 'grpc'], /--agent-dialect must be acp or kandev/],
    [['--repo', '/r', '--agent-dialect', 'acp'], /--agent-dialect applies to --agent-command/],
  ])('refuses %j with a clear message', (argv, message) => {
    expect(() => parseServeOptions(argv)).toThrow(expect.objectContaining({ code: 'usage' }));
    expect(() => parseServeOptions(argv)).toThrow(message);
  });

  it('answers --help', () => {
    expect(parseServeOptions(['--help'])).toBe('help');
  });
});
