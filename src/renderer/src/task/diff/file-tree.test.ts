// The review's file tree and the viewed marks' rule: a mark counts only while the file's diff is the one marked.
import { describe, expect, it } from 'vitest';
import { diffKey, isViewed } from '../../../../shared/viewed';
import { filesInTreeOrder, fileTree } from './file-tree';

describe('fileTree', () => {
  it('groups files by folder, folders first, and shows a chain of single folders as one', () => {
    const tree = fileTree([{ path: 'README.md' }, { path: 'src/main/core/a.ts' }, { path: 'src/main/core/b.ts' }, { path: 'docs/x.md' }]);
    expect(tree.map((node) => node.name)).toEqual(['docs', 'src/main/core', 'README.md']);
    expect(filesInTreeOrder(tree).map((file) => file.path)).toEqual(['docs/x.md', 'src/main/core/a.ts', 'src/main/core/b.ts', 'README.md']);
  });
});

describe('viewed marks', () => {
  const file = { path: 'a.ts', status: 'modified', additions: 1, deletions: 0, oldText: 'a\n', newText: 'a\nb\n' };

  it('counts a mark made at the diff shown, and drops it once that diff changes', () => {
    const marks = { 'a.ts': diffKey(file) };
    expect(isViewed(marks, file)).toBe(true);
    expect(isViewed(marks, { ...file, newText: 'a\nc\n' })).toBe(false);
    expect(isViewed({}, file)).toBe(false);
  });
});
