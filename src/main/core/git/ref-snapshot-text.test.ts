// The snapshot composed from ref files as read: git's precedence, its peel data, and when the files must defer to git.
import { describe, expect, it } from 'vitest';
import { hiddenTaskBranchesFor, snapshotFromFiles, type DerefOf } from './ref-snapshot-text';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const T = 'c'.repeat(40);
const HEADER = '# pack-refs with: peeled fully-peeled sorted \n';
const noTags: DerefOf = () => null;

describe('snapshotFromFiles', () => {
  it('lists a loose ref over the packed one of the same name, sorted by name', () => {
    const snapshot = snapshotFromFiles({
      loose: new Map([['refs/heads/main', `${B}\n`]]),
      packed: `${HEADER}${A} refs/heads/main\n${A} refs/heads/feature\n`,
    }, noTags);
    expect(snapshot).toEqual({ kind: 'text', text: `${A}  refs/heads/feature\n${B}  refs/heads/main`, untagged: [A, A] });
  });

  it('lists a symbolic ref with the object of the ref it names', () => {
    const snapshot = snapshotFromFiles({
      loose: new Map([['refs/remotes/origin/HEAD', 'ref: refs/remotes/origin/main\n']]),
      packed: `${HEADER}${A} refs/remotes/origin/main\n`,
    }, noTags);
    expect(snapshot).toMatchObject({ kind: 'text', text: `${A}  refs/remotes/origin/HEAD\n${A}  refs/remotes/origin/main` });
  });

  it('asks for what a packed annotated tag points at rather than taking its fully peeled line', () => {
    const snapshot = snapshotFromFiles({ loose: new Map(), packed: `${HEADER}${T} refs/tags/v1\n^${A}\n` }, () => undefined);
    expect(snapshot).toEqual({ kind: 'unknown', objects: [T], untagged: [] });
    expect(snapshotFromFiles({ loose: new Map(), packed: `${HEADER}${T} refs/tags/v1\n^${A}\n` }, (object) => (object === T ? A : undefined)))
      .toMatchObject({ kind: 'text', text: `${T} ${A} refs/tags/v1` });
  });

  it('leaves refs outside branches, tags and remotes out, an annotated tag\'s peel line included', () => {
    const packed = `${HEADER}${A} refs/desk/archive/x\n${T} refs/original/refs/tags/v1\n^${A}\n${B} refs/heads/main\n`;
    expect(snapshotFromFiles({ loose: new Map(), packed }, noTags)).toMatchObject({ kind: 'text', text: `${B}  refs/heads/main` });
  });

  it('defers to git for a symbolic ref naming a ref that is not there', () => {
    const snapshot = snapshotFromFiles({ loose: new Map([['refs/remotes/origin/HEAD', 'ref: refs/remotes/origin/gone\n']]), packed: undefined }, noTags);
    expect(snapshot.kind).toBe('ask-git');
  });

  it('defers to git for a packed-refs file written without peel data', () => {
    expect(snapshotFromFiles({ loose: new Map(), packed: `${A} refs/heads/main\n` }, noTags).kind).toBe('ask-git');
  });

  it('defers to git for a loose ref holding something other than an object name', () => {
    expect(snapshotFromFiles({ loose: new Map([['refs/heads/main', `${A} trailing\n`]]), packed: undefined }, noTags).kind).toBe('ask-git');
  });
});

describe('a task\'s view of the snapshot', () => {
  const own = 'refs/heads/desk/k3f9qz2a/mine-3f2a9c1b';
  const hidden = hiddenTaskBranchesFor(own);

  it('hides the other branches of the task\'s desk, only for a branch the desk named', () => {
    expect(hidden).toEqual({ hiddenDir: 'refs/heads/desk/k3f9qz2a/', own });
    expect(hiddenTaskBranchesFor('refs/heads/main')).toBeUndefined();
    expect(hiddenTaskBranchesFor('refs/heads/desk/k3f9qz2a/nested/deeper')).toBeUndefined();
  });

  it('lists the person\'s refs, another desk\'s and its own branch, loose or packed, and not its desk\'s other tasks\'', () => {
    const packed = `${HEADER}${A} refs/heads/desk/k3f9qz2a/other-1\n${A} refs/heads/desk/x9/theirs\n${B} refs/heads/main\n`;
    const loose = new Map([[own, `${B}\n`], ['refs/heads/desk/k3f9qz2a/other-2', `${A}\n`], ['refs/heads/desk/k3f9qz2a-not/x', `${A}\n`]]);
    expect(snapshotFromFiles({ loose, packed }, noTags, hidden)).toMatchObject({
      kind: 'text',
      text: [`${A}  refs/heads/desk/k3f9qz2a-not/x`, `${B}  ${own}`, `${A}  refs/heads/desk/x9/theirs`, `${B}  refs/heads/main`].join('\n'),
    });
  });
});
