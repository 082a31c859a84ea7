import { describe, expect, it } from 'vitest';
import { bwrapArguments, orderedMounts, type SandboxLayout } from './bwrap-arguments';

const layout: SandboxLayout = {
  bwrap: '/usr/bin/bwrap',
  cwd: '/data/worktrees/t',
  network: 'none',
  newSession: true,
  mounts: [
    { kind: 'read-only', path: '/data/worktrees/t/.git' },
    { kind: 'writable', path: '/data/worktrees/t' },
    { kind: 'hide-dir', path: '/data' },
    { kind: 'hide-file', path: '/home/me/.netrc' },
  ],
};

describe('the bubblewrap command line', () => {
  it('starts from a read-only root with its own /proc, PID namespace and no capabilities, and ends with the command', () => {
    const args = bwrapArguments(layout, 'node', ['agent.js', '--flag']);
    expect(args).toEqual(expect.arrayContaining(['--die-with-parent', '--unshare-pid', '--unshare-net', '--new-session', '--cap-drop', 'ALL']));
    expect(args.join(' ')).toContain('--ro-bind / / --dev /dev --proc /proc');
    expect(args.slice(-5)).toEqual(['/data/worktrees/t', '--', 'node', 'agent.js', '--flag']);
  });

  it('hides a parent before opening what lies inside it, and closes read-only spots last', () => {
    const text = bwrapArguments(layout, 'true', []).join(' ');
    expect(text.indexOf('--tmpfs /data')).toBeLessThan(text.indexOf('--bind /data/worktrees/t /data/worktrees/t'));
    expect(text.indexOf('--bind /data/worktrees/t /data/worktrees/t')).toBeLessThan(text.indexOf('--ro-bind /data/worktrees/t/.git'));
    expect(text).toContain('--ro-bind /dev/null /home/me/.netrc');
  });

  it('keeps the network and the terminal\'s session when asked', () => {
    const args = bwrapArguments({ ...layout, network: 'host', newSession: false }, 'sh', []);
    expect(args).not.toContain('--unshare-net');
    expect(args).not.toContain('--new-session');
  });

  it('sets the variables it is given for the command, as bubblewrap options before it', () => {
    const args = bwrapArguments({ ...layout, env: { DESK_NET_BRIDGE: '["--relay","4000=/s"]' } }, 'node', []);
    expect(args.slice(-7)).toEqual(['--setenv', 'DESK_NET_BRIDGE', '["--relay","4000=/s"]', '--chdir', '/data/worktrees/t', '--', 'node']);
  });

  it('orders mounts at one path hide, open, close', () => {
    expect(orderedMounts([
      { kind: 'read-only', path: '/a' }, { kind: 'writable', path: '/a' }, { kind: 'hide-dir', path: '/a' },
    ]).map((m) => m.kind)).toEqual(['hide-dir', 'writable', 'read-only']);
  });
});
