import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { MIGRATIONS } from './migrations';

let dir: string | undefined;
afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); dir = undefined; });
const dbPath = () => join((dir = mkdtempSync(join(tmpdir(), 'desk-db-'))), 'desk.sqlite');

describe('openDatabase', () => {
  it('creates the schema in WAL mode and stamps its version', () => {
    const db = openDatabase(dbPath());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all()).toEqual([
      { name: 'ap_queued_steps' }, { name: 'ap_task_inputs' }, { name: 'ap_uploads' }, { name: 'desk_repos' }, { name: 'events' }, { name: 'governance_requests' }, { name: 'task_turns' }, { name: 'tasks' }, { name: 'viewed_files' },
    ]);
    db.close();
  });

  it('makes a new database ready to give pruned pages back without rewriting it (no VACUUM on a first start)', () => {
    const db = openDatabase(dbPath());
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    // Written once: a VACUUM would have put every page into the write-ahead log a second time.
    const [wal] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
    expect(wal?.log).toBeLessThanOrEqual(db.pragma('page_count', { simple: true }) as number);
    db.close();
  });

  it('applies only the migrations a database has not seen, keeping its data', () => {
    const path = dbPath();
    openDatabase(path, ['CREATE TABLE notes (text TEXT)']).exec("INSERT INTO notes VALUES ('kept')");
    const db = openDatabase(path, ['CREATE TABLE notes (text TEXT)', 'ALTER TABLE notes ADD COLUMN at TEXT']);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(db.prepare('SELECT text, at FROM notes').all()).toEqual([{ text: 'kept', at: null }]);
    db.close();
  });

  it('upgrades whole or not at all: a failing migration leaves the database as it was, its data kept', () => {
    const path = dbPath();
    openDatabase(path, ['CREATE TABLE notes (text TEXT)']).exec("INSERT INTO notes VALUES ('kept')");
    const broken = ['CREATE TABLE notes (text TEXT)', 'ALTER TABLE notes ADD COLUMN at TEXT', 'ALTER TABLE no_such_table ADD COLUMN x TEXT'];
    expect(() => openDatabase(path, broken)).toThrow(/no_such_table/);
    const db = new Database(path);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare('SELECT * FROM notes').all()).toEqual([{ text: 'kept' }]);
    db.close();
  });

  it('refuses a database written by a newer version of the app', () => {
    const path = dbPath();
    const newer = new Database(path);
    newer.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    newer.close();
    expect(() => openDatabase(path)).toThrow(expect.objectContaining({ code: 'database_too_new' }));
    expect(() => openDatabase(path)).toThrow(/understands up to/);
  });
});
