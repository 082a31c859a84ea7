import { describe, expect, it } from 'vitest';
import { forgeRepository, remoteLocation } from './forge-remote';

describe('forgeRepository', () => {
  it.each([
    ['https://github.com/acme/app.git', { kind: 'github', host: 'github.com', path: 'acme/app' }],
    ['https://github.com/acme/app', { kind: 'github', host: 'github.com', path: 'acme/app' }],
    ['git@github.com:acme/app.git', { kind: 'github', host: 'github.com', path: 'acme/app' }],
    ['ssh://git@github.com:22/acme/app.git', { kind: 'github', host: 'github.com', path: 'acme/app' }],
    ['https://token@GitHub.com/acme/app.git/', { kind: 'github', host: 'github.com', path: 'acme/app' }],
    ['https://gitlab.com/group/sub/app.git', { kind: 'gitlab', host: 'gitlab.com', path: 'group/sub/app' }],
    ['git@gitlab.com:group/app.git', { kind: 'gitlab', host: 'gitlab.com', path: 'group/app' }],
  ])('reads %s', (url, expected) => {
    expect(forgeRepository(url)).toEqual(expected);
  });

  it('knows the hosts a repository names besides github.com and gitlab.com', () => {
    expect(forgeRepository('git@git.corp.example:team/app.git', { 'git.corp.example': 'gitlab' })).toEqual({ kind: 'gitlab', host: 'git.corp.example', path: 'team/app' });
    expect(forgeRepository('https://ghe.corp.example/team/app', { 'ghe.corp.example': 'github' })).toMatchObject({ kind: 'github' });
  });

  it('finds no forge for local paths, unknown hosts or a GitHub path that is not owner/name', () => {
    expect(forgeRepository('/srv/git/app.git')).toBeUndefined();
    expect(forgeRepository('file:///srv/git/app.git')).toBeUndefined();
    expect(forgeRepository('https://git.example.org/team/app.git')).toBeUndefined();
    expect(forgeRepository('https://github.com/acme/app/extra')).toBeUndefined();
    expect(remoteLocation('C:\\repos\\app')).toBeUndefined();
  });
});
