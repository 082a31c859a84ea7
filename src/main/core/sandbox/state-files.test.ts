// Which directories a task's scratch replaces for an agent's state files, and what comes back into them.
import { describe, expect, it } from 'vitest';
import { bwrapArguments } from './bwrap-arguments';
import { planStateScratch, scratchMounts, type DirEntry } from './state-files';

const home: DirEntry[] = [
  { name: '.claude.json', kind: 'file' }, { name: '.claude', kind: 'dir' }, { name: '.ssh', kind: 'dir' },
  { name: '.bashrc', kind: 'symlink' }, { name: 'notes.txt', kind: 'file' }, { name: 'code', kind: 'dir' },
];
const plan = (stateFiles: string[], writable: string[] = ['/home/me/.claude']) => planStateScratch({
  stateFiles, writable, mountedPaths: ['/home/me/.claude', '/home/me/.ssh'], scratchRoot: '/data/sb/x/state',
  entriesOf: (dir) => (dir === '/home/me' ? home : []),
});

describe('the scratch directory that holds an agent\'s state files', () => {
  it('replaces the home for ~/.claude.json, bringing back the person\'s other entries read-only and their links as links', () => {
    expect(plan(['/home/me/.claude.json'])).toEqual([{
      path: '/home/me', source: '/data/sb/x/state/0', stateFiles: ['/home/me/.claude.json'],
      readOnly: [{ path: '/home/me/notes.txt', kind: 'file' }, { path: '/home/me/code', kind: 'dir' }],
      symlinks: ['/home/me/.bashrc'],
    }]);
  });

  it('leaves entries other mounts take (state dirs, hidden credentials) to those mounts', () => {
    const [scratch] = plan(['/home/me/.claude.json']);
    expect(scratch?.readOnly.map((entry) => entry.path)).not.toContain('/home/me/.ssh');
    expect(scratch?.readOnly.map((entry) => entry.path)).not.toContain('/home/me/.claude');
  });

  it('needs no scratch for a state file inside a writable place', () => {
    expect(plan(['/home/me/.claude/settings.json'])).toEqual([]);
  });

  it('binds the scratch in the home\'s place before the person\'s entries come back read-only over it', () => {
    const args = bwrapArguments({ bwrap: 'bwrap', cwd: '/w', network: 'none', newSession: true, mounts: scratchMounts(plan(['/home/me/.claude.json'])) }, 'agent', []);
    const joined = args.join(' ');
    expect(joined).toContain('--bind /data/sb/x/state/0 /home/me');
    expect(joined.indexOf('--bind /data/sb/x/state/0 /home/me')).toBeLessThan(joined.indexOf('--ro-bind /home/me/notes.txt /home/me/notes.txt'));
  });
});
