// How a refused push is put in words on the task: git's porcelain status of the ref, else its first error line.
import { describe, expect, it } from 'vitest';
import { reasonOf } from './push-branch';

describe('reasonOf', () => {
  it('says a remote that moved on refused the push, and that nothing was forced', () => {
    const porcelain = 'To /tmp/remote.git\n!\trefs/heads/main:refs/heads/main\t[rejected] (fetch first)\nDone\n';
    expect(reasonOf(porcelain, 'error: failed to push some refs')).toBe('rejected: fetch first (the remote has commits this branch lacks; nothing was forced)');
    expect(reasonOf(porcelain.replace('fetch first', 'non-fast-forward'), '')).toMatch(/^rejected: non-fast-forward/);
  });

  it('keeps any other refusal of the ref as git said it', () => {
    expect(reasonOf('!\trefs/heads/main:refs/heads/main\t[remote rejected] (pre-receive hook declined)\n', '')).toBe('[remote rejected] (pre-receive hook declined)');
  });

  it('falls back to the first error line when no ref was reported', () => {
    expect(reasonOf('', "fatal: 'nowhere' does not appear to be a git repository\nfatal: Could not read from remote repository.")).toBe("fatal: 'nowhere' does not appear to be a git repository");
  });
});
