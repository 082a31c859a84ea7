import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { archiveRefFor, branchNameFor, worktreeDirNameFor } from './branch-names';

const hash8 = (id: string) => createHash('sha256').update(id).digest('hex').slice(0, 8);

const AWKWARD_IDS = [
  'fix login/bug #12', '..hidden', '-starts-with-dash', 'ends.with.lock', 'ends-with-dot.', 'a..b', 'a/../b',
  'x@{1}', 'tilde~caret^colon:question?star*[bracket]', 'back\\slash', 'spaces   and\ttabs', '日本語のタスク',
  '', '.', '...', 'ALLCAPS', 'a'.repeat(200), `${'b'.repeat(39)}.lock`, 'emoji 🚀 task',
];

describe('branchNameFor', () => {
  it('keeps a readable slug of the task id and ends with the first 8 hex of its sha256', () => {
    expect(branchNameFor('fix login/bug #12')).toBe(`desk/fix-login-bug-12-${hash8('fix login/bug #12')}`);
  });

  it('gives ids that slug alike different branches', () => {
    expect(branchNameFor('a/b')).not.toBe(branchNameFor('a:b'));
    expect(branchNameFor('Task')).not.toBe(branchNameFor('task'));
  });

  it('never starts the slug with a dot or dash, never contains "..", and caps the slug at 40 characters', () => {
    for (const id of AWKWARD_IDS) {
      const slug = worktreeDirNameFor(id).slice(0, -9);
      expect(slug, id).not.toMatch(/^[.-]/);
      expect(slug, id).not.toMatch(/[.-]$/);
      expect(slug, id).not.toContain('..');
      expect(slug.length, id).toBeLessThanOrEqual(40);
      expect(slug, id).toMatch(/^[A-Za-z0-9._-]+$/);
    }
  });

  it('falls back to "task" when nothing readable is left of the id', () => {
    expect(branchNameFor('日本語')).toBe(`desk/task-${hash8('日本語')}`);
    expect(branchNameFor('')).toBe(`desk/task-${hash8('')}`);
  });

  it('produces names that git accepts as branch names', () => {
    for (const id of AWKWARD_IDS) {
      expect(() => execFileSync('git', ['check-ref-format', '--branch', branchNameFor(id)], { stdio: 'pipe' }), id).not.toThrow();
      expect(() => execFileSync('git', ['check-ref-format', archiveRefFor(id, new Date(0))], { stdio: 'pipe' }), id).not.toThrow();
    }
  });
});

describe('worktreeDirNameFor', () => {
  it('is the branch name without the desk/ prefix', () => {
    for (const id of AWKWARD_IDS) expect(`desk/${worktreeDirNameFor(id)}`).toBe(branchNameFor(id));
  });
});

describe('archiveRefFor', () => {
  it('names the archive by task directory and UTC time to the millisecond', () => {
    expect(archiveRefFor('fix', new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 678))))
      .toBe(`refs/desk/archive/fix-${hash8('fix')}/2025-01-02T03-04-05.678Z`);
  });
});
