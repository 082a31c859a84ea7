import { describe, expect, it } from 'vitest';
import { containerGitBinds, type ContainerGitFacts } from './container-git';

const facts = (present: readonly string[]): ContainerGitFacts => ({
  commonDir: '/repo/.git',
  worktree: '/data/wt/fix-login',
  taskGitDir: { dir: '/data/ct/run/git', link: '/data/ct/run/git.link', readOnly: ['/data/ct/run/git/config', '/data/ct/run/git/info', '/data/ct/run/git/objects/info'] },
  exists: (path) => present.includes(path),
});

describe("a container's git", () => {
  it("gets the task git dir writable, what steers it read-only, the repository's objects, config, hooks and info read-only, and the link over the worktree's .git", () => {
    const binds = containerGitBinds(facts([
      '/data/ct/run/git/config', '/data/ct/run/git/info', '/data/ct/run/git/objects/info',
      '/repo/.git/objects', '/repo/.git/config', '/repo/.git/hooks', '/repo/.git/info',
    ]));
    expect(binds).toEqual([
      '/data/ct/run/git:/data/ct/run/git:rw',
      '/data/ct/run/git/config:/data/ct/run/git/config:ro', '/data/ct/run/git/info:/data/ct/run/git/info:ro',
      '/data/ct/run/git/objects/info:/data/ct/run/git/objects/info:ro',
      '/repo/.git/objects:/repo/.git/objects:ro', '/repo/.git/config:/repo/.git/config:ro',
      '/repo/.git/hooks:/repo/.git/hooks:ro', '/repo/.git/info:/repo/.git/info:ro',
      '/data/ct/run/git.link:/data/wt/fix-login/.git:ro',
    ]);
  });

  it("mounts nothing else of the repository's git dir: its refs, index, HEAD, stash, logs and worktrees stay out of the container", () => {
    const binds = containerGitBinds(facts(['/repo/.git/objects', '/repo/.git/config', '/repo/.git/hooks', '/repo/.git/info']));
    const fromRepository = binds.map((bind) => bind.split(':')[0] as string).filter((source) => source.startsWith('/repo/'));
    expect(fromRepository).toEqual(['/repo/.git/objects', '/repo/.git/config', '/repo/.git/hooks', '/repo/.git/info']);
  });

  it('leaves out a part of the repository that does not exist, which the Docker host would otherwise make as root', () => {
    const binds = containerGitBinds(facts(['/repo/.git/objects', '/repo/.git/config']));
    expect(binds.some((bind) => bind.startsWith('/repo/.git/hooks') || bind.startsWith('/repo/.git/info'))).toBe(false);
  });
});
