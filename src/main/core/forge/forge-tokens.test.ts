import { describe, expect, it } from 'vitest';
import { forgeToken, yamlValueUnder } from './forge-tokens';

const files = (byPath: Record<string, string>) => (path: string) => byPath[path];

describe('forgeToken', () => {
  it('takes GH_TOKEN before GITHUB_TOKEN, and GITLAB_TOKEN for GitLab, as the forges\' CLIs do', () => {
    const env = { GH_TOKEN: 'gh-1', GITHUB_TOKEN: 'gh-2', GITLAB_TOKEN: 'gl-1' };
    expect(forgeToken('github', 'github.com', { env, readHomeFile: files({}) })).toEqual({ token: 'gh-1', source: 'GH_TOKEN' });
    expect(forgeToken('github', 'github.com', { env: { GITHUB_TOKEN: ' gh-2 ' }, readHomeFile: files({}) })).toEqual({ token: 'gh-2', source: 'GITHUB_TOKEN' });
    expect(forgeToken('gitlab', 'gitlab.com', { env, readHomeFile: files({}) })).toEqual({ token: 'gl-1', source: 'GITLAB_TOKEN' });
  });

  it('falls back to the person\'s gh login for the remote\'s host', () => {
    const hosts = 'github.com:\n    user: ada\n    oauth_token: gho_abc\n    git_protocol: https\nghe.corp:\n    oauth_token: "gho_corp"\n';
    const readHomeFile = files({ '.config/gh/hosts.yml': hosts });
    expect(forgeToken('github', 'github.com', { env: {}, readHomeFile })).toMatchObject({ token: 'gho_abc' });
    expect(forgeToken('github', 'ghe.corp', { env: {}, readHomeFile })).toMatchObject({ token: 'gho_corp' });
    expect(forgeToken('github', 'other.example', { env: {}, readHomeFile })).toBeUndefined();
  });

  it('falls back to the person\'s glab login for the remote\'s host', () => {
    const config = 'git_protocol: ssh\nhosts:\n    gitlab.com:\n        token: glpat-xyz\n        api_host: gitlab.com\n    git.corp:\n        token: glpat-corp\n';
    const readHomeFile = files({ '.config/glab-cli/config.yml': config });
    expect(forgeToken('gitlab', 'gitlab.com', { env: {}, readHomeFile })).toMatchObject({ token: 'glpat-xyz' });
    expect(forgeToken('gitlab', 'git.corp', { env: {}, readHomeFile })).toMatchObject({ token: 'glpat-corp' });
  });

  it('finds nothing without a variable or a login file', () => {
    expect(forgeToken('gitlab', 'gitlab.com', { env: { GH_TOKEN: 'not-for-gitlab' }, readHomeFile: files({}) })).toBeUndefined();
  });
});

describe('yamlValueUnder', () => {
  it('reads a key only at the nesting asked for', () => {
    const text = 'token: top\nhosts:\n  a:\n    token: deep\n  b:\n    other: x\n';
    expect(yamlValueUnder(text, ['hosts', 'a'], 'token')).toBe('deep');
    expect(yamlValueUnder(text, [], 'token')).toBe('top');
    expect(yamlValueUnder(text, ['hosts', 'b'], 'token')).toBeUndefined();
  });
});
