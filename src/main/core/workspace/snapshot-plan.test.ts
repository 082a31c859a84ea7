// The pure decisions about snapshots: reuse, move or check out; prepare again or not; what a sweep removes.
import { describe, expect, it } from 'vitest';
import { isTempName, prepareDue, repoKeyOf, snapshotWay, sweepPlan, tempName, upToDate, type SnapshotState } from './snapshot-plan';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const state = (commit: string, madeAt: string, leases: string[] = [], repoKey = 'repo-1'): SnapshotState => ({ repoKey, commit, madeAt, leases });

describe('snapshotWay', () => {
  it('reuses a snapshot of the same commit', () => {
    expect(snapshotWay(A, [state(A, '2026-01-01', ['t1'])])).toEqual({ kind: 'reuse' });
  });

  it('moves the newest snapshot when no task uses it', () => {
    expect(snapshotWay(C, [state(A, '2026-01-01'), state(B, '2026-01-02')])).toEqual({ kind: 'move', from: B });
  });

  it('makes a snapshot out of date anew when unused, and reuses it while a task holds it', () => {
    expect(snapshotWay(A, [state(A, '1'), state(B, '2')], false)).toEqual({ kind: 'remake' });
    expect(snapshotWay(A, [state(A, '1', ['t1'])], false)).toEqual({ kind: 'reuse' });
  });

  it('checks out anew when the newest snapshot is in use, or there is none', () => {
    expect(snapshotWay(C, [state(A, '2026-01-01'), state(B, '2026-01-02', ['t1'])])).toEqual({ kind: 'checkout' });
    expect(snapshotWay(C, [])).toEqual({ kind: 'checkout' });
  });
});

describe('upToDate', () => {
  it('holds while the copy globs (in any order) and the prepare command are the same', () => {
    expect(upToDate({ prepared: 'npm ci', copy: ['.env', 'deps'] }, { prepare: 'npm ci', copy: ['deps', '.env'] })).toBe(true);
    expect(upToDate({ prepared: 'npm ci', copy: [] }, { prepare: 'pnpm i', copy: [] })).toBe(false);
    expect(upToDate({ prepared: undefined, copy: ['.env'] }, { copy: [] })).toBe(false);
    // A removed prepare leaves what it made: nothing to remake for.
    expect(upToDate({ prepared: 'npm ci', copy: [] }, { copy: [] })).toBe(true);
  });
});

describe('prepareDue', () => {
  const previous = (changedPaths: string[], prepared: string | undefined = 'npm ci') => ({ prepared, changedPaths });

  it('prepares every new checkout that has a command, and none without one', () => {
    expect(prepareDue({ command: 'npm ci', prepareWhen: ['package-lock.json'] })).toBe(true);
    expect(prepareDue({ command: undefined, prepareWhen: undefined, previous: previous(['x']) })).toBe(false);
  });

  it('prepares a moved snapshot again only when a path of prepareWhen changed', () => {
    expect(prepareDue({ command: 'npm ci', prepareWhen: ['**/package-lock.json'], previous: previous(['src/a.ts']) })).toBe(false);
    expect(prepareDue({ command: 'npm ci', prepareWhen: ['**/package-lock.json'], previous: previous(['web/package-lock.json']) })).toBe(true);
    expect(prepareDue({ command: 'npm ci', prepareWhen: [], previous: previous(['package-lock.json']) })).toBe(false);
  });

  it('prepares a moved snapshot again when prepareWhen is not given or the command changed', () => {
    expect(prepareDue({ command: 'npm ci', prepareWhen: undefined, previous: previous([]) })).toBe(true);
    expect(prepareDue({ command: 'pnpm i', prepareWhen: ['package-lock.json'], previous: previous([]) })).toBe(true);
  });
});

describe('sweepPlan', () => {
  it('removes unused snapshots but each repository\'s newest', () => {
    const plan = sweepPlan([state(A, '1', ['t1']), state(B, '2'), state(C, '3'), state(A, '1', [], 'other')]);
    expect(plan).toEqual({ remove: [{ repoKey: 'repo-1', commit: B }], staleLeases: [] });
  });

  it('drops the leases of tasks no longer live, and removes what they alone held', () => {
    const plan = sweepPlan([state(A, '1', ['gone', 'live']), state(B, '2', ['gone']), state(C, '3')], new Set(['live']));
    expect(plan.remove).toEqual([{ repoKey: 'repo-1', commit: B }]);
    expect(plan.staleLeases).toEqual([
      { repoKey: 'repo-1', commit: A, taskId: 'gone' },
      { repoKey: 'repo-1', commit: B, taskId: 'gone' },
    ]);
  });
});

describe('names', () => {
  it('keys repositories by folder name and a hash of their git dir', () => {
    expect(repoKeyOf('/home/me/app/.git')).toMatch(/^app-[0-9a-f]{12}$/);
    expect(repoKeyOf('/srv/app.git')).toMatch(/^app-[0-9a-f]{12}$/);
    expect(repoKeyOf('/home/me/app/.git')).not.toBe(repoKeyOf('/home/you/app/.git'));
  });

  it('never names a temp dir like a finished snapshot', () => {
    expect(isTempName(tempName('making', A, 'x'))).toBe(true);
    expect(isTempName(A)).toBe(false);
  });
});
