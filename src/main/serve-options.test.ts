import { describe, expect, it } from 'vitest';
import { parseServeOptions, UsageError } from './serve-options';

describe('parseServeOptions', () => {
  it('fills in the defaults', () => {
    expect(parseServeOptions(['--repo', '/r'])).toEqual({
      repo: '/r', port: 1337, host: '127.0.0.1', agent: 'scripted', concurrency: 2,
      allowedOrigins: ['https://prompt-pad.danmercer.net'], allowedHosts: [],
    });
  });

  it('takes every flag', () => {
    expect(parseServeOptions(['--repo', '/r', '--port', '0', '--host', '::1', '--token', 'abcdefghijklmnop', '--data-dir', '/d', '--agent', 'x',
      '--concurrency', '3', '--base-branch', 'dev', '--allow-origin', 'https://a.example', '--allow-host', 'Desk.Lan', '--server-name', 'Mine'])).toEqual({
      repo: '/r', port: 0, host: '::1', token: 'abcdefghijklmnop', dataDir: '/d', agent: 'x', concurrency: 3, baseBranch: 'dev',
      allowedOrigins: ['https://prompt-pad.danmercer.net', 'https://a.example'], allowedHosts: ['desk.lan'], serverName: 'Mine',
    });
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
  ])('refuses %j with a clear message', (argv, message) => {
    expect(() => parseServeOptions(argv)).toThrow(UsageError);
    expect(() => parseServeOptions(argv)).toThrow(message);
  });

  it('answers --help', () => {
    expect(parseServeOptions(['--help'])).toBe('help');
  });
});
