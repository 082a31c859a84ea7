import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstRepoArgument } from './serve-first-repo';

describe('firstRepoArgument', () => {
  it('finds the first --repo, made absolute as the host makes it', () => {
    expect(firstRepoArgument(['--port', '0', '--repo', 'here', '--repo', '/elsewhere'])).toBe(resolve('here'));
  });

  it('reads --repo=PATH as well as --repo PATH', () => {
    expect(firstRepoArgument(['--repo=/work/repo'])).toBe('/work/repo');
  });

  it('finds none without a --repo, for --help, or for a --repo without its path', () => {
    expect(firstRepoArgument(['--port', '0'])).toBeUndefined();
    expect(firstRepoArgument(['--repo', '/work/repo', '--help'])).toBeUndefined();
    expect(firstRepoArgument(['--repo'])).toBeUndefined();
  });
});
