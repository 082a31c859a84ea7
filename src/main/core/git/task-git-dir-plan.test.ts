import { describe, expect, it } from 'vitest';
import { planTaskGitDir, TaskGitDirRefused, tipOf } from './task-git-dir-plan';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const T = 'c'.repeat(40);
const P = 'd'.repeat(40);
const refs = [`${A}  refs/heads/desk/d1/task`, `${B}  refs/heads/main`, `${T} ${P} refs/tags/v1`, `${B}  refs/remotes/origin/main`].join('\n');

describe('the task\'s own git dir', () => {
  const plan = planTaskGitDir({ commonDir: '/repo/.git', worktreeHead: 'ref: refs/heads/desk/d1/task\n', refs });

  it('puts HEAD on the task\'s branch at the commit the worktree is on', () => {
    expect(plan.files.HEAD).toBe('ref: refs/heads/desk/d1/task\n');
    expect(plan.files['refs/heads/desk/d1/task']).toBe(`${A}\n`);
    expect(plan.startCommit).toBe(A);
  });

  it('borrows the person\'s objects and reads their config and hooks', () => {
    expect(plan.files['objects/info/alternates']).toBe('/repo/.git/objects\n');
    expect(plan.files.config).toContain('\tpath = /repo/.git/config');
    expect(plan.files.config).toContain('\thooksPath = /repo/.git/hooks');
  });

  it('snapshots the other branches and tags as packed refs, sorted, annotated tags peeled', () => {
    expect(plan.files['packed-refs']).toBe([
      '# pack-refs with: peeled fully-peeled sorted ',
      `${B} refs/heads/main`, `${B} refs/remotes/origin/main`, `${T} refs/tags/v1`, `^${P}`, '',
    ].join('\n'));
  });

  it('says a sha256 repository\'s object format in its own config', () => {
    const long = planTaskGitDir({ commonDir: '/r', worktreeHead: 'ref: refs/heads/t', refs: `${'e'.repeat(64)}  refs/heads/t` });
    expect(long.files.config).toContain('objectformat = sha256');
  });

  it('refuses a worktree whose HEAD names no branch', () => {
    expect(() => planTaskGitDir({ commonDir: '/r', worktreeHead: A, refs })).toThrow(TaskGitDirRefused);
  });
});

describe('where the agent\'s git left HEAD', () => {
  it('follows HEAD to its loose ref', () => {
    expect(tipOf({ head: 'ref: refs/heads/x\n', looseRef: `${B}\n`, packedRefs: undefined })).toBe(B);
  });

  it('finds a packed ref when there is no loose one', () => {
    expect(tipOf({ head: 'ref: refs/heads/main', looseRef: undefined, packedRefs: `# pack-refs\n${B} refs/heads/main\n` })).toBe(B);
  });

  it('takes a detached HEAD as it is', () => {
    expect(tipOf({ head: `${T}\n`, looseRef: undefined, packedRefs: undefined })).toBe(T);
  });

  it('finds nothing in a garbled or missing HEAD, nor through a ref name leading out of the git dir', () => {
    expect(tipOf({ head: 'garbage', looseRef: B, packedRefs: undefined })).toBeUndefined();
    expect(tipOf({ head: undefined, looseRef: B, packedRefs: undefined })).toBeUndefined();
    expect(tipOf({ head: 'ref: refs/../../HEAD', looseRef: B, packedRefs: undefined })).toBeUndefined();
  });
});
