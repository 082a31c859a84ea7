// SQLite writers reached from HTTP on a database with no room (a real SQLite file held at its size with
// max_page_count, answered with SQLITE_FULL as for a full disk): each refuses as the desk's 503 `disk_full`, worded
// as a refused submission is, through the one guard, and writes again once there is room.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GovernanceRecord } from '../../../shared/governance';
import { createGovernanceRepo } from '../governance/governance-repo';
import { createDiskWatch } from '../host/disk-watch';
import { toHttpError } from '../http/domain-errors';
import { createApRecordsRepo } from './ap-records-repo';
import { openDatabase, type Db } from './database';
import { createDeskReposRepo } from './desk-repos-repo';
import { fullDiskGuard } from './refuse-when-full';
import { createViewedRepo } from './viewed-repo';

let dir: string | undefined;
let db: Db | undefined;
afterEach(() => {
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  db = undefined;
  dir = undefined;
});

/** The desk's database in a fresh data dir, unable to grow by a page; and the guard the core wraps its writers with. */
function fullDesk() {
  dir = mkdtempSync(join(tmpdir(), 'desk-full-writers-'));
  const database = openDatabase(join(dir, 'desk.sqlite'));
  db = database;
  database.pragma(`max_page_count = ${database.pragma('page_count', { simple: true }) as number}`);
  const logged: string[] = [];
  const disk = createDiskWatch({ dataDir: dir, now: () => new Date('2026-01-01T00:00:00.000Z'), log: (line) => logged.push(line), queuedEvents: () => 0 });
  return { database, dataDir: dir, guard: fullDiskGuard(disk), logged };
}

/** What an HTTP client is answered for what `write` threw (the server's one mapping). */
function answerTo(write: () => unknown) {
  try {
    write();
  } catch (error) {
    const answer = toHttpError(error);
    return { status: answer.status, body: answer.body() };
  }
  throw new Error('The write went through: the database was not full');
}

// Bigger than a page: a row this size needs pages the database cannot have.
const BIG = 'x'.repeat(16 * 1024);

function auditRecord(id: string): GovernanceRecord {
  return {
    id, agentId: 'claude', taskId: 't1', source: 'agent-api', requestType: 'APPROVAL', action: 'execute', summary: `run ${BIG}`,
    paths: [], state: 'pending', history: [{ state: 'pending', at: '2026-01-01T00:00:00.000Z' }], rule: '', reason: '', createdAt: '2026-01-01T00:00:00.000Z',
  };
}

describe('SQLite writers reached from HTTP when the data dir is full', () => {
  it('answers a governance request whose audit record finds no room with 503 disk_full naming the data dir, not a 500', () => {
    const { database, dataDir, guard } = fullDesk();
    const audit = guard(createGovernanceRepo(database, '/repo'), 'the governance audit log');

    const answer = answerTo(() => audit.insert(auditRecord('r1')));

    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ error: 'unavailable', code: 'disk_full', details: { path: dataDir } });
    expect(answer.body.message).toMatch(new RegExp(`^Disk full: the governance audit log could not be written, the file system holding ${dataDir}`));
    expect(answer.body.message).toContain('no restart needed');
  });

  it('answers an Agent Protocol record, a viewed mark and a kept repository that find no room with 503 disk_full, each naming what it wrote', () => {
    const { database, guard } = fullDesk();
    const records = guard(createApRecordsRepo(database, '/repo'), 'the Agent Protocol records');
    const viewed = guard(createViewedRepo(database, '/repo'), "the diff's viewed marks");
    const repos = guard(createDeskReposRepo(database, '/repo'), "the desk's list of repositories");

    const answers = [
      answerTo(() => records.putTaskInput('t1', '2026-01-01T00:00:00.000Z', { note: BIG })),
      answerTo(() => viewed.mark('t1', `src/${BIG}.ts`, 'k1', '2026-01-01T00:00:00.000Z')),
      answerTo(() => repos.put({ name: 'other', path: `/work/${BIG}` })),
    ];

    expect(answers.map((a) => [a.status, a.body.code])).toEqual([[503, 'disk_full'], [503, 'disk_full'], [503, 'disk_full']]);
    expect(answers.map((a) => a.body.message.split(' could not')[0])).toEqual([
      'Disk full: the Agent Protocol records', "Disk full: the diff's viewed marks", "Disk full: the desk's list of repositories",
    ]);
  });

  it('still reads while the disk is full, and writes once there is room again', () => {
    const { database, guard } = fullDesk();
    const viewed = guard(createViewedRepo(database, '/repo'), "the diff's viewed marks");
    answerTo(() => viewed.mark('t1', `src/${BIG}.ts`, 'k1', '2026-01-01T00:00:00.000Z'));
    expect(viewed.forTask('t1')).toEqual({});

    database.pragma('max_page_count = 1000000');
    viewed.mark('t1', `src/${BIG}.ts`, 'k1', '2026-01-01T00:00:00.000Z');

    expect(viewed.forTask('t1')).toEqual({ [`src/${BIG}.ts`]: 'k1' });
    expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('lets a write refused for another reason fail as before, not as disk_full', () => {
    const { database, guard } = fullDesk();
    database.pragma('max_page_count = 1000000');
    const audit = guard(createGovernanceRepo(database, '/repo'), 'the governance audit log');
    audit.insert(auditRecord('same'));

    const answer = answerTo(() => audit.insert(auditRecord('same')));

    expect(answer.status).toBe(500);
    expect(answer.body.code).not.toBe('disk_full');
  });
});
