// Every field of a task survives the database: written by a submission and by updates, read back by `get` and by
// `list`. Both the insert and the reads go by position, so a value written to or read from the wrong column shows here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from './database';
import { createTasksRepo, type TaskRecord } from './tasks-repo';

let dir: string | undefined;
afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); dir = undefined; });

it('reads back every field it wrote, each from its own column', () => {
  const db = openDatabase(join((dir = mkdtempSync(join(tmpdir(), 'desk-db-'))), 'desk.sqlite'));
  const tasks = createTasksRepo(db, '/scope', { defaultRepo: 'app' });
  // Distinct values everywhere, so two swapped columns cannot read back equal.
  const submitted: Omit<TaskRecord, 'seq' | 'workingMs'> = {
    id: 'every-field', prompt: 'the prompt', dependencies: ['dep-a', 'dep-b'], agent: 'the-agent', status: 'queued', review: 'pending',
    submittedAt: '2026-01-01T00:00:01.000Z', updatedAt: '2026-01-01T00:00:02.000Z', baseBranch: 'trunk', attempt: 3,
    after: 'approved', repo: 'other', proposedBy: 'proposer', proposal: 'pending', proposalRequest: 'request-7', runner: 'docker',
  };
  tasks.putSubmission({ id: 'first', prompt: 'p', dependencies: [], agent: 'a', status: 'queued', review: 'pending', submittedAt: 't', updatedAt: 't', baseBranch: 'main', attempt: 0 });
  tasks.putSubmission(submitted);
  const updated = tasks.update('every-field', {
    status: 'completed', review: 'approved', startedAt: '2026-01-01T00:00:03.000Z', finishedAt: '2026-01-01T00:00:04.000Z',
    baseCommit: 'base-sha', branch: 'desk/every-field', worktreePath: '/worktrees/every-field', commit: 'commit-sha',
    errorMessage: 'an error', agentPid: 4242, sessionId: 'session-9', conflict: { baseBranch: 'trunk', baseCommit: 'conflict-sha', files: ['a.ts'] },
    push: { remote: 'origin', branch: 'trunk', ok: false, message: 'rejected', at: '2026-01-01T00:00:07.000Z' }, archivedAt: '2026-01-01T00:00:05.000Z',
    workingMs: 1234, workingSince: '2026-01-01T00:00:06.000Z', lastActivity: { kind: 'tool', text: 'Edit a.ts' },
    agentInfo: { name: 'claude-code-acp', title: 'Claude Code', version: '0.16.2' },
    pullRequest: { forge: 'github', url: 'https://github.com/a/b/pull/3', number: 3, state: 'open', draft: false, head: 'desk/x', base: 'trunk', checks: { state: 'pending', total: 2, passed: 1, failed: 0 }, checkedAt: 't9' },
    noChanges: { summary: 'no change', failed: [{ title: 'npm test', detail: 'exit code 1' }] },
    attention: { commit: 'commit-sha', files: [{ path: '.envrc', reason: 'direnv' }] },
    check: { status: 'failed', exitCode: 2, durationMs: 812, outputTail: '1 failing' },
    attempts: { agents: ['a', 'b'], choose: 'check', chosen: 2, stats: { 2: { filesChanged: 1, additions: 3, deletions: 0 } } },
  });
  const expected: TaskRecord = {
    ...submitted, seq: 2, status: 'completed', review: 'approved', startedAt: '2026-01-01T00:00:03.000Z', finishedAt: '2026-01-01T00:00:04.000Z',
    baseCommit: 'base-sha', branch: 'desk/every-field', worktreePath: '/worktrees/every-field', commit: 'commit-sha',
    errorMessage: 'an error', agentPid: 4242, sessionId: 'session-9', conflict: { baseBranch: 'trunk', baseCommit: 'conflict-sha', files: ['a.ts'] },
    push: { remote: 'origin', branch: 'trunk', ok: false, message: 'rejected', at: '2026-01-01T00:00:07.000Z' }, archivedAt: '2026-01-01T00:00:05.000Z',
    workingMs: 1234, workingSince: '2026-01-01T00:00:06.000Z', lastActivity: { kind: 'tool', text: 'Edit a.ts' },
    agentInfo: { name: 'claude-code-acp', title: 'Claude Code', version: '0.16.2' },
    pullRequest: { forge: 'github', url: 'https://github.com/a/b/pull/3', number: 3, state: 'open', draft: false, head: 'desk/x', base: 'trunk', checks: { state: 'pending', total: 2, passed: 1, failed: 0 }, checkedAt: 't9' },
    noChanges: { summary: 'no change', failed: [{ title: 'npm test', detail: 'exit code 1' }] },
    attention: { commit: 'commit-sha', files: [{ path: '.envrc', reason: 'direnv' }] },
    check: { status: 'failed', exitCode: 2, durationMs: 812, outputTail: '1 failing' },
    attempts: { agents: ['a', 'b'], choose: 'check', chosen: 2, stats: { 2: { filesChanged: 1, additions: 3, deletions: 0 } } },
  };
  expect(updated).toEqual(expected);
  expect(tasks.get('every-field')).toEqual(expected);
  expect(tasks.list()).toEqual([
    { id: 'first', seq: 1, prompt: 'p', dependencies: [], agent: 'a', status: 'queued', review: 'pending', submittedAt: 't', updatedAt: 't', baseBranch: 'main', attempt: 0, repo: 'app', workingMs: 0 },
    expected,
  ]);
  db.close();
});

it('stores every field a submission carries in its own column, also those a run sets later', () => {
  const db = openDatabase(join((dir = mkdtempSync(join(tmpdir(), 'desk-db-'))), 'desk.sqlite'));
  const tasks = createTasksRepo(db, '/scope', { defaultRepo: 'app' });
  // A resubmission's record may carry any field; each value differs from every other, so a swap cannot read back equal.
  const submitted: Omit<TaskRecord, 'seq' | 'workingMs'> = {
    id: 'all-at-once', prompt: 'the prompt', dependencies: ['dep-a'], agent: 'the-agent', status: 'in-progress', review: 'rejected',
    submittedAt: 'submitted-at', updatedAt: 'updated-at', startedAt: 'started-at', finishedAt: 'finished-at', baseBranch: 'trunk',
    baseCommit: 'base-sha', branch: 'desk/all', worktreePath: '/worktrees/all', commit: 'commit-sha', errorMessage: 'an error', attempt: 5,
    agentPid: 77, sessionId: 'session-1', after: 'approved', conflict: { baseBranch: 'b', baseCommit: 'c', files: ['f'] },
    push: { remote: 'r', branch: 'br', ok: true, message: 'm', at: 'pushed-at' }, repo: 'other', archivedAt: 'archived-at',
    workingSince: 'working-since', lastActivity: { kind: 'tool', text: 'Edit' }, proposedBy: 'proposer', proposal: 'accepted',
    proposalRequest: 'request-1', runner: 'cluster', agentInfo: { name: 'an-agent', version: '1.2.3' },
    pullRequest: { forge: 'gitlab', url: 'u', number: 8, state: 'merged', draft: true, head: 'h', base: 'b', checkedAt: 'checked-at' },
    noChanges: { summary: 'nothing', failed: [] },
    attention: { commit: 'attention-sha', files: [{ path: 'CLAUDE.md', reason: 'agents' }] },
    check: { status: 'passed', exitCode: 0, durationMs: 40, outputTail: 'ok' },
    attemptOf: { task: 'parent', n: 3 },
  };
  const stored = tasks.putSubmission(submitted);
  const expected: TaskRecord = { ...submitted, seq: 1, workingMs: 0 };
  expect(stored).toEqual(expected);
  expect(tasks.get('all-at-once')).toEqual(expected);
  db.close();
});
