// The governance service over real SQLite and a real policy file: what it records, how requests end,
// and what survives a restart.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GovernanceRecord } from '../../../shared/governance';
import { openDatabase, type Db } from '../store/database';
import { createGovernanceRepo } from './governance-repo';
import { createGovernanceService, type GovernanceService, type ReviewInput } from './governance-service';
import { createPolicyFileStore } from './policy-file';

let root: string;
let worktree: string;
let dataDir: string;
let db: Db | undefined;
let clock: Date;
let changes: GovernanceRecord[];

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'desk-governance-')));
  worktree = join(root, 'worktree');
  dataDir = join(root, 'data');
  mkdirSync(join(worktree, 'src'), { recursive: true });
  mkdirSync(join(root, 'outside'));
  clock = new Date('2025-01-01T10:00:00.000Z');
  changes = [];
});
afterEach(() => {
  db?.close();
  db = undefined;
  rmSync(root, { recursive: true, force: true });
});

function open(): GovernanceService {
  db?.close();
  db = openDatabase(join(dataDir, 'desk.sqlite'));
  return createGovernanceService({
    repo: createGovernanceRepo(db, worktree), policyStore: createPolicyFileStore(dataDir), now: () => clock, onChange: (r) => changes.push(r),
  });
}

const later = (ms: number) => { clock = new Date(clock.getTime() + ms); };
const acp = (fields: Partial<ReviewInput>): ReviewInput => ({ agentId: 'claude', taskId: 't1', source: 'acp', kind: 'read', title: 'Read a file', paths: [], worktree, ...fields });

describe('review', () => {
  it('approves a read inside the worktree and records the whole path of states', () => {
    const record = open().review(acp({ paths: ['src/a.ts'] }));
    expect(record).toMatchObject({ state: 'approved', decision: 'approved', rule: 'capability-allowed', agentId: 'claude', taskId: 't1', summary: 'Read a file' });
    expect(record.history.map((h) => h.state)).toEqual(['pending', 'validating', 'approved']);
    expect(changes).toEqual([record]);
  });

  it('rejects a path that a symlink inside the worktree leads outside', () => {
    symlinkSync(join(root, 'outside'), join(worktree, 'escape'));
    const service = open();
    expect(service.review(acp({ kind: 'edit', paths: ['escape/new-file.txt'] }))).toMatchObject({ state: 'rejected', rule: 'path-outside-worktree' });
    expect(service.review(acp({ kind: 'edit', paths: [join(worktree, 'escape')] }))).toMatchObject({ rule: 'path-outside-worktree' });
  });

  it('rejects a write through a dangling symlink that points outside', () => {
    symlinkSync(join(root, 'outside', 'not-yet'), join(worktree, 'src', 'dangling'));
    expect(open().review(acp({ kind: 'edit', paths: ['src/dangling'] }))).toMatchObject({ state: 'rejected', rule: 'path-outside-worktree' });
  });

  it('judges a worktree reached through a symlink by where it really is', () => {
    symlinkSync(worktree, join(root, 'link-to-worktree'));
    const record = open().review(acp({ worktree: join(root, 'link-to-worktree'), paths: [join(worktree, 'src/a.ts')] }));
    expect(record).toMatchObject({ state: 'approved' });
  });

  it('refuses everything when the worktree itself is gone', () => {
    expect(open().review(acp({ worktree: join(root, 'missing'), paths: ['a'] }))).toMatchObject({ state: 'rejected', rule: 'no-worktree' });
  });

  it('ends a dry run at once, whatever the policy said', () => {
    const record = open().review(acp({ source: 'agent-api', requestType: 'VALIDATE', kind: 'execute', command: 'make' }));
    expect(record).toMatchObject({ decision: 'escalated', state: 'completed', outcome: 'validated' });
    expect(record.history.map((h) => h.state)).toEqual(['pending', 'validating', 'escalated', 'completed']);
  });
});

describe('complete', () => {
  it('closes a decided request with its outcome and how long the asker waited', () => {
    const service = open();
    const asked = service.review(acp({ kind: 'execute', command: 'npm test' }));
    expect(asked.state).toBe('escalated');
    later(4_000);
    const done = service.complete(asked.id, { outcome: 'allowed', answeredBy: 'dana' });
    expect(done).toMatchObject({ state: 'completed', outcome: 'allowed', answeredBy: 'dana', waitedMs: 4_000, completedAt: '2025-01-01T10:00:04.000Z' });
    expect(service.get(asked.id)).toEqual(done);
    expect(done.history.map((h) => h.state)).toEqual(['pending', 'validating', 'escalated', 'completed']);
  });

  it('never lets an escalated request through without a person', () => {
    const service = open();
    const asked = service.review(acp({ kind: 'elicitation', title: 'Which database?' }));
    expect(() => service.complete(asked.id, { outcome: 'answered' })).toThrow(expect.objectContaining({ code: 'governance_conflict' }));
    expect(service.complete(asked.id, { outcome: 'cancelled' })).toMatchObject({ outcome: 'cancelled' });
  });

  it('refuses to turn a rejection into an approval, and a second completion', () => {
    const service = open();
    const rejected = service.review(acp({ paths: ['/etc/passwd'] }));
    expect(() => service.complete(rejected.id, { outcome: 'allowed' })).toThrow(expect.objectContaining({ code: 'governance_conflict' }));
    service.complete(rejected.id, { outcome: 'rejected' });
    expect(() => service.complete(rejected.id, { outcome: 'rejected' })).toThrow(expect.objectContaining({ code: 'already_answered' }));
  });
});

describe('answer', () => {
  it('lets the first person answer an escalated agent request and refuses the second', () => {
    const service = open();
    const asked = service.review(acp({ source: 'agent-api', taskId: undefined, kind: 'delete', paths: ['src/old.ts'] }));
    later(1_500);
    expect(service.answer(asked.id, 'approved', 'dana')).toMatchObject({ state: 'approved', answeredBy: 'dana', waitedMs: 1_500 });
    expect(() => service.answer(asked.id, 'rejected', 'eve')).toThrow(expect.objectContaining({ code: 'already_answered' }));
    expect(service.report(asked.id, true)).toMatchObject({ state: 'completed', outcome: 'done' });
  });

  it('sends answers to a task agent\'s question to the task', () => {
    const service = open();
    const asked = service.review(acp({ kind: 'delete' }));
    expect(() => service.answer(asked.id, 'approved', 'dana')).toThrow(/POST \/tasks\/t1\/input/);
  });
});

describe('tokens and the policy file', () => {
  it('keeps the policy, the tokens and the audit log across a restart, with the file private', () => {
    const first = open();
    first.setPolicy({ version: 1, defaults: { capabilities: { execute: 'deny' }, allowedPaths: ['**'], deniedCommands: [], requestsPerMinute: 60 }, agents: { codex: { requestsPerMinute: 5 } } });
    const token = first.issueToken('codex');
    const asked = first.review(acp({ agentId: 'codex', kind: 'execute', command: 'make' }));

    const second = open();
    expect(second.agentForToken(token)).toBe('codex');
    expect(second.agentForToken(`${token}x`)).toBeUndefined();
    expect(second.policyFor('codex')).toMatchObject({ requestsPerMinute: 5, capabilities: { execute: 'deny' } });
    expect(second.get(asked.id)).toMatchObject({ rule: 'capability-denied' });
    expect(statSync(join(dataDir, 'policy.json')).mode & 0o777).toBe(0o600);
  });

  it('keeps issued tokens when the policy is replaced, until they are revoked', () => {
    const service = open();
    const token = service.issueToken('codex');
    service.setPolicy({ version: 1, defaults: { capabilities: {}, allowedPaths: ['**'], deniedCommands: [], requestsPerMinute: 60 }, agents: {} });
    expect(service.agentForToken(token)).toBe('codex');
    expect(service.revokeToken('codex')).toBe(true);
    expect(service.agentForToken(token)).toBeUndefined();
  });

  it('stops with one line naming the file and the field when policy.json is wrong', () => {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'policy.json'), JSON.stringify({ version: 1, agents: { codex: { capabilities: { execute: 'sometimes' } } } }));
    expect(open).toThrow(expect.objectContaining({ code: 'policy_file_invalid' }));
    expect(open).toThrow(/policy\.json is invalid at agents\.codex\.capabilities\.execute: /);
    writeFileSync(join(dataDir, 'policy.json'), '{ "version": 1, ');
    expect(open).toThrow(/policy\.json is not valid JSON/);
  });

  it('limits an agent\'s requests per minute and lets it ask again once the minute has passed', () => {
    const service = open();
    service.setPolicy({ version: 1, defaults: { capabilities: {}, allowedPaths: ['**'], deniedCommands: [], requestsPerMinute: 2 }, agents: {} });
    service.admitAgentRequest('codex');
    later(10_000);
    service.admitAgentRequest('codex');
    expect(() => service.admitAgentRequest('codex')).toThrow(expect.objectContaining({ code: 'rate_limited' }));
    service.admitAgentRequest('gemini');
    later(50_001);
    expect(() => service.admitAgentRequest('codex')).not.toThrow();
  });
});
