import { describe, expect, it } from 'vitest';
import { isLeftoverSandbox } from './leftover-sandboxes';

const root = '/home/me/.desk/sb';
const sandbox = (...options: string[]) => ['/usr/bin/bwrap', '--die-with-parent', ...options, '--chdir', '/work', '--', 'sh', '-c', 'sleep 300'];

describe('isLeftoverSandbox', () => {
  it('knows a bwrap that binds a run folder below this data dir\'s sandbox root', () => {
    expect(isLeftoverSandbox(sandbox('--bind', `${root}/a1b2c3/tmp`, `${root}/a1b2c3/tmp`), [root])).toBe(true);
    expect(isLeftoverSandbox(['bwrap', '--bind', `${root}/x/tmp`, `${root}/x/tmp`, '--', 'true'], [root])).toBe(true);
  });

  it('knows it by either spelling of the root', () => {
    expect(isLeftoverSandbox(sandbox('--bind', `/real/desk/sb/x/tmp`, '/real/desk/sb/x/tmp'), [root, '/real/desk/sb'])).toBe(true);
  });

  it('leaves alone another desk\'s sandbox, a folder that only starts like the root, and the root itself', () => {
    expect(isLeftoverSandbox(sandbox('--bind', '/home/me/other-desk/sb/x/tmp', '/tmp/x'), [root])).toBe(false);
    expect(isLeftoverSandbox(sandbox('--bind', `${root}x/x/tmp`, '/tmp/x'), [root])).toBe(false);
    expect(isLeftoverSandbox(sandbox('--tmpfs', root), [root])).toBe(false);
  });

  it('never reads the sandboxed command: a path there is what someone asked to run, not how the sandbox was made', () => {
    expect(isLeftoverSandbox(['/usr/bin/bwrap', '--ro-bind', '/', '/', '--', 'cat', `${root}/x/tmp/notes`], [root])).toBe(false);
  });

  it('leaves alone other programs and a bwrap command line without its end of options', () => {
    expect(isLeftoverSandbox(['/bin/sh', '-c', `ls ${root}/x/tmp`, '--', 'x'], [root])).toBe(false);
    expect(isLeftoverSandbox(['/usr/bin/bwrap-helper', '--bind', `${root}/x/tmp`, '--'], [root])).toBe(false);
    expect(isLeftoverSandbox(['/usr/bin/bwrap', '--bind', `${root}/x/tmp`, `${root}/x/tmp`], [root])).toBe(false);
    expect(isLeftoverSandbox([], [root])).toBe(false);
  });
});
