import { describe, expect, it } from 'vitest';
import { relativeText, shortPath } from './worktree-path';

const WT = '/data/worktrees/abc/t1-1';

describe('shortPath', () => {
  it('shows a path relative to the task worktree', () => {
    expect(shortPath('/data/worktrees/abc/t1-1/src/a.ts', WT)).toBe('src/a.ts');
    expect(shortPath(WT, `${WT}/`)).toBe('.');
  });

  it('recognises the desk worktree layout when the worktree is not known', () => {
    expect(shortPath('/data/worktrees/abc/t1-1/math.ts', undefined)).toBe('math.ts');
  });

  it('leaves other paths alone, also one that only starts like the worktree', () => {
    expect(shortPath('/etc/hosts', WT)).toBe('/etc/hosts');
    expect(shortPath('/data/worktrees/abc/t1-10/a.ts', WT)).toBe('/data/worktrees/abc/t1-10/a.ts');
  });
});

describe('relativeText', () => {
  it("makes every path inside the worktree in a tool call's title relative", () => {
    expect(relativeText(`Write ${WT}/hello.txt`, WT)).toBe('Write hello.txt');
    expect(relativeText(`Move ${WT}/a.txt to ${WT}/b/a.txt`, WT)).toBe('Move a.txt to b/a.txt');
    expect(relativeText(`cd ${WT} && ls`, WT)).toBe('cd . && ls');
  });

  it('keeps paths outside the worktree absolute, since those are the ones to notice', () => {
    expect(relativeText(`Read /home/me/.ssh/id_rsa and ${WT}/x`, WT)).toBe('Read /home/me/.ssh/id_rsa and x');
    expect(relativeText(`Edit ${WT}-other/x`, WT)).toBe(`Edit ${WT}-other/x`);
  });

  it('recognises the desk worktree layout in text when the worktree is not known', () => {
    expect(relativeText('Write /home/me/.local/share/desk/worktrees/abc/t1-1/hello.txt', undefined)).toBe('Write hello.txt');
    expect(relativeText('Read /etc/passwd', undefined)).toBe('Read /etc/passwd');
  });
});
