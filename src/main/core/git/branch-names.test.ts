import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { archiveRefFor, branchNameFor, worktreeDirNameFor } from './branch-names';
import { newDeskId } from './desk-id';

const hash8 = (id: string) => createHash('sha256').update(id).digest('hex').slice(0, 8);
const DESK = 'k3f9qz2a';

const AWKWARD_IDS = [
  'fix login/bug #12', '..hidden', '-starts-with-dash', 'ends.with.lock', 'ends-with-dot.', 'a..b', 'a/../b',
  'x@{1}', 'tilde~caret^colon:question?star*[bracket]', 'back\\slash', 'spaces   and\ttabs', '日本語のタスク',
  '', '.', '...', 'ALLCAPS', 'a'.repeat(200), `${'b'.repeat(39)}.lock`, 'emoji 🚀 task',
];

describe('branchNameFor', () => {
  it('names the desk, then keeps a readable slug of the task id ending with the first 8 hex of its sha256', () => {
    expect(branchNameFor(DESK, 'fix login/bug #12')).toBe(`desk/${DESK}/fix-login-bug-12-${hash8('fix login/bug #12')}`);
  });

  it('gives the same task different branches on different desks', () => {
    expect(branchNameFor('aaaaaaaa', 'fix')).not.toBe(branchNameFor('bbbbbbbb', 'fix'));
  });

  it('gives ids that slug alike different branches', () => {
    expect(branchNameFor(DESK, 'a/b')).not.toBe(branchNameFor(DESK, 'a:b'));
    expect(branchNameFor(DESK, 'Task')).not.toBe(branchNameFor(DESK, 'task'));
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
    expect(branchNameFor(DESK, '日本語')).toBe(`desk/${DESK}/task-${hash8('日本語')}`);
    expect(branchNameFor(DESK, '')).toBe(`desk/${DESK}/task-${hash8('')}`);
  });

  it('produces names that git accepts as branch names', () => {
    for (const id of AWKWARD_IDS) {
      const desk = newDeskId();
      expect(() => execFileSync('git', ['check-ref-format', '--branch', branchNameFor(desk, id)], { stdio: 'pipe' }), id).not.toThrow();
      expect(() => execFileSync('git', ['check-ref-format', archiveRefFor(desk, id, new Date(0))], { stdio: 'pipe' }), id).not.toThrow();
    }
  });
});

describe('worktreeDirNameFor', () => {
  it('is the branch name without the desk/<desk id>/ prefix', () => {
    for (const id of AWKWARD_IDS) expect(`desk/${DESK}/${worktreeDirNameFor(id)}`).toBe(branchNameFor(DESK, id));
  });
});

describe('archiveRefFor', () => {
  it('names the archive by desk, task directory and UTC time to the millisecond', () => {
    expect(archiveRefFor(DESK, 'fix', new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 678))))
      .toBe(`refs/desk/archive/${DESK}/fix-${hash8('fix')}/2025-01-02T03-04-05.678Z`);
  });
});
