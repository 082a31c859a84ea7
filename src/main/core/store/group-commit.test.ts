import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGroupCommit } from './group-commit';
import type { Db } from './database';

let dir: string;
let db: Db;
/** A second connection sees only what is committed. */
let reader: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  db = new Database(join(dir, 'db.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY)');
  reader = new Database(join(dir, 'db.sqlite'), { readonly: true });
});
afterEach(() => {
  reader.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const committedIds = () => reader.prepare('SELECT id FROM t ORDER BY id').all().map((row) => (row as { id: string }).id);
const insert = (id: string) => () => db.prepare('INSERT INTO t (id) VALUES (?)').run(id).changes;

describe('group commit', () => {
  it('commits the writes of one turn together and answers each only after the commit', async () => {
    let commitNow: (() => void) | undefined;
    const group = createGroupCommit(db, { later: (commit) => { commitNow = commit; } });
    const settled: string[] = [];
    const writes = ['a', 'b', 'c'].map((id) => group.write(insert(id)).then(() => settled.push(id)));
    // Written (the writer sees them) but not yet durable, and nobody has been told so.
    expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 3 });
    expect(committedIds()).toEqual([]);
    await Promise.resolve();
    expect(settled).toEqual([]);

    commitNow?.();
    await Promise.all(writes);
    expect(committedIds()).toEqual(['a', 'b', 'c']);
    expect(settled).toEqual(['a', 'b', 'c']);
  });

  it('undoes only the write that failed; the others in its group are committed', async () => {
    const group = createGroupCommit(db);
    const results = await Promise.allSettled([
      group.write(insert('a')),
      group.write(() => { insert('b')(); throw new Error('refused'); }),
      group.write(insert('a')), // a duplicate key fails on its own
      group.write(insert('c')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(committedIds()).toEqual(['a', 'c']);
  });

  it('opens a new transaction for the next turn', async () => {
    const group = createGroupCommit(db);
    await group.write(insert('a'));
    expect(db.inTransaction).toBe(false);
    await group.write(insert('b'));
    expect(committedIds()).toEqual(['a', 'b']);
  });

  it('refuses every write of a group whose commit fails, and says so', async () => {
    let commitNow: (() => void) | undefined;
    const failures: unknown[] = [];
    const group = createGroupCommit(db, { later: (commit) => { commitNow = commit; }, onFailedCommit: (error) => failures.push(error) });
    const writes = [group.write(insert('a')), group.write(insert('b'))].map((write) => write.then(() => 'stored', () => 'refused'));
    // A deferred foreign key violation is only found at COMMIT.
    db.exec('CREATE TABLE parent (id TEXT PRIMARY KEY); CREATE TABLE child (p TEXT REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)');
    db.pragma('foreign_keys = ON');
    db.exec("INSERT INTO child (p) VALUES ('missing')");
    commitNow?.();
    expect(await Promise.all(writes)).toEqual(['refused', 'refused']);
    expect(failures).toHaveLength(1);
    expect(db.inTransaction).toBe(false);
    expect(committedIds()).toEqual([]);
  });

  it('flush commits what is pending at once', async () => {
    const group = createGroupCommit(db, { later: () => undefined });
    const write = group.write(insert('a'));
    group.flush();
    await write;
    expect(committedIds()).toEqual(['a']);
  });
});
