// Which program a terminal starts for an agent's command: as given, or a shell line through a shell.
import { describe, expect, it } from 'vitest';
import { terminalLaunch } from './terminal-command';

describe('terminalLaunch', () => {
  it('runs a program with arguments as given, without a shell', () => {
    expect(terminalLaunch('git', ['status', '--short; rm -rf x'], 'linux')).toEqual({ command: 'git', args: ['status', '--short; rm -rf x'] });
  });

  it('runs a lone program name as given', () => {
    expect(terminalLaunch('ls', [], 'linux')).toEqual({ command: 'ls', args: [] });
  });

  it('runs a whole shell line sent without arguments through /bin/sh -c', () => {
    expect(terminalLaunch('cat hello.txt && echo done', [], 'linux')).toEqual({ command: '/bin/sh', args: ['-c', 'cat hello.txt && echo done'] });
  });

  it('runs a shell line through cmd.exe on Windows', () => {
    expect(terminalLaunch('dir /b', [], 'win32')).toEqual({ command: 'cmd.exe', args: ['/d', '/s', '/c', 'dir /b'] });
  });
});
