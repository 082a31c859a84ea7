import { describe, expect, it } from 'vitest';
import { shortPath } from './worktree-path';

describe('shortPath', () => {
  it('shows a path relative to the task worktree', () => {
    expect(shortPath('/data/worktrees/abc/t1-1/src/a.ts', '/data/worktrees/abc/t1-1')).toBe('src/a.ts');
  });

  it('recognises the desk worktree layout when the worktree is not known', () => {
    expect(shortPath('/data/worktrees/abc/t1-1/math.ts', undefined)).toBe('math.ts');
  });

  it('leaves other paths alone', () => {
    expect(shortPath('/etc/hosts', '/data/worktrees/abc/t1-1')).toBe('/etc/hosts');
  });
});
