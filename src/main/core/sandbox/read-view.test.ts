import { describe, expect, it } from 'vitest';
import { installRootOf } from './agent-install-paths';
import { readViewMounts, visibleIn, withoutShownLinks, type ReadViewFacts } from './read-view';

const existing = new Map<string, 'dir' | 'file'>([
  ['/tmp', 'dir'], ['/var/tmp', 'dir'], ['/home/me', 'dir'], ['/home/me/.nvm', 'dir'], ['/home/me/.cargo', 'dir'],
  ['/home/me/.cargo/credentials.toml', 'file'], ['/home/me/.config/git', 'dir'], ['/home/me/.config/git/credentials', 'file'], ['/home/me/.gitconfig', 'file'], ['/home/me/dotfiles/gitconfig', 'file'],
  ['/home/me/bin', 'dir'], ['/home/me/.local/share/pipx/venvs/black', 'dir'], ['/home/me/.ssh/tools', 'dir'], ['/home/me/notes', 'dir'], ['/home/me/apps/agent', 'dir'], ['/srv/secrets', 'dir'],
]);
const links = new Map([['/home/me/.gitconfig', '/home/me/dotfiles/gitconfig']]);

const facts: ReadViewFacts = {
  home: '/home/me', tempDir: '/data/sb/x/tmp', pathDirs: ['/usr/bin', '/home/me/bin', '/home/me/.nvm/versions/node/v20/bin'],
  installPaths: ['/home/me/apps/agent', '/usr/lib/node_modules'], hiddenPaths: [], readablePaths: [],
  kindOf: (path) => existing.get(path), linkTarget: (path) => links.get(path),
};

const view = (more: Partial<ReadViewFacts> = {}) => readViewMounts({ ...facts, ...more });
const visible = (path: string, more: Partial<ReadViewFacts> = {}) => visibleIn(view(more), path);

describe('the read view of the home and the temp dirs', () => {
  it('gives the agent its task\'s temp dir as /tmp and hides /var/tmp', () => {
    expect(view()).toContainEqual(expect.objectContaining({ kind: 'scratch-dir', path: '/tmp', source: '/data/sb/x/tmp' }));
    expect(visible('/tmp/someone-else/secret.env')).toBe(false);
    expect(visible('/var/tmp/cache')).toBe(false);
  });

  it('hides the home but for the toolchains that exist, read-only', () => {
    expect(visible('/home/me/.bash_history')).toBe(false);
    expect(visible('/home/me/notes/secret.txt')).toBe(false);
    expect(view().filter((m) => m.kind === 'read-only').map((m) => m.path)).toContain('/home/me/.nvm');
    expect(visible('/home/me/.rustup')).toBe(false);
  });

  it('keeps the credentials of a toolchain hidden, and git\'s credential store beside its settings', () => {
    expect(visible('/home/me/.cargo/bin/cargo')).toBe(true);
    expect(visible('/home/me/.cargo/credentials.toml')).toBe(false);
    expect(visible('/home/me/.config/git/ignore')).toBe(true);
    expect(visible('/home/me/.config/git/credentials')).toBe(false);
  });

  it('puts back the link on PATH the agent is started by when it lies in a hidden dir, its install shown where it leads', () => {
    const more = {
      programOnPath: '/tmp/bin/agent',
      kindOf: (path: string) => (path === '/tmp/bin/agent' ? 'file' as const : existing.get(path)),
      linkTarget: (path: string) => (path === '/tmp/bin/agent' ? '/home/me/apps/agent/cli.js' : links.get(path)),
    };
    expect(view(more)).toContainEqual(expect.objectContaining({ kind: 'symlink', path: '/tmp/bin/agent', source: '/home/me/apps/agent/cli.js' }));
    expect(visible('/home/me/apps/agent/cli.js', more)).toBe(true);
    expect(view({ programOnPath: '/usr/bin/agent' }).some((mount) => mount.path === '/usr/bin/agent')).toBe(false);
  });

  it('leaves out a link another mount shows already (the agent cache kept readable in a hidden data dir)', () => {
    const link = { kind: 'symlink' as const, path: '/tmp/data/agent-cache/node_modules/.bin/agent', source: '/tmp/data/agent-cache/node_modules/agent/cli.js' };
    const shown = [{ kind: 'scratch-dir' as const, path: '/tmp', source: '/t' }, { kind: 'read-only' as const, path: '/tmp/data/agent-cache' }, link];
    expect(withoutShownLinks(shown)).not.toContainEqual(link);
    const hidden = [{ kind: 'scratch-dir' as const, path: '/tmp', source: '/t' }, link];
    expect(withoutShownLinks(hidden)).toContainEqual(link);
  });

  it('puts back a linked ~/.gitconfig as a link, with what it leads to read-only', () => {
    expect(view()).toContainEqual(expect.objectContaining({ kind: 'symlink', path: '/home/me/.gitconfig', source: '/home/me/dotfiles/gitconfig' }));
    expect(visible('/home/me/dotfiles/gitconfig')).toBe(true);
    expect(visible('/home/me/dotfiles/other')).toBe(false);
  });

  it('opens the home\'s directories on the agent\'s PATH and the agent\'s own install', () => {
    expect(visible('/home/me/bin/tool')).toBe(true);
    expect(visible('/home/me/apps/agent/index.js')).toBe(true);
    expect(view().map((m) => m.path)).not.toContain('/usr/lib/node_modules');
  });

  it('opens where a link on the PATH leads, but never the whole home or a credentials dir', () => {
    const more = { pathLinkTargets: ['/home/me/.local/share/pipx/venvs/black', '/home/me', '/home/me/.ssh/tools'] };
    expect(visible('/home/me/.local/share/pipx/venvs/black/lib/site.py', more)).toBe(true);
    expect(visible('/home/me/notes/secret.txt', more)).toBe(false);
    expect(visible('/home/me/.ssh/tools/key', more)).toBe(false);
  });

  it('hides what hiddenPaths name, toolchains included, and opens what readablePaths name', () => {
    const more = { hiddenPaths: ['~/.nvm', '/srv/secrets'], readablePaths: ['~/notes'] };
    expect(visible('/home/me/.nvm/nvm.sh', more)).toBe(false);
    expect(visible('/srv/secrets/key', more)).toBe(false);
    expect(visible('/home/me/notes/todo.txt', more)).toBe(true);
    expect(view(more).find((m) => m.path === '/home/me/notes')?.kind).toBe('read-only');
  });

  it('lets hiddenPaths win over readablePaths naming the same place', () => {
    expect(visible('/srv/secrets/key', { hiddenPaths: ['/srv/secrets'], readablePaths: ['/srv/secrets'] })).toBe(false);
  });
});

describe('where an agent\'s program is installed', () => {
  const none = () => false;

  it('is the outermost node_modules of an npm install, where its hoisted dependencies live', () => {
    expect(installRootOf('/home/me/p/node_modules/@z/agent/node_modules/x/dist/index.js', '/home/me', none)).toBe('/home/me/p/node_modules');
  });

  it('is the package a program runs from source in, but never the home or above', () => {
    expect(installRootOf('/home/me/src/desk/src/agent.ts', '/home/me', (dir) => dir === '/home/me/src/desk')).toBe('/home/me/src/desk');
    expect(installRootOf('/home/me/tools/agent.ts', '/home/me', (dir) => dir === '/home/me')).toBe('/home/me/tools');
  });
});
