import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { freshSchemaOf } from './fresh-schema';
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
      { name: 'ap_queued_steps' }, { name: 'ap_task_inputs' }, { name: 'ap_uploads' }, { name: 'desk_repos' }, { name: 'events' }, { name: 'governance_requests' }, { name: 'task_grants' }, { name: 'task_turns' }, { name: 'tasks' }, { name: 'viewed_files' },
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

  it('makes a new database in one step from the migrations folded together, with every table, column and index they make', () => {
    expect(freshSchemaOf(MIGRATIONS)?.version, 'fresh-schema.ts cannot fold a statement of migrations.ts: teach it, or new databases replay every migration').toBe(MIGRATIONS.length);
    const fresh = openDatabase(dbPath());
    const replayed = openDatabase(join(dir as string, 'replayed.sqlite'), MIGRATIONS, { freshSchema: undefined });
    expect(shapeOf(fresh)).toEqual(shapeOf(replayed));
    expect(fresh.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    fresh.close();
    replayed.close();
  });

  it('replays the migrations for a new database when the written-out schema is for another version', () => {
    const db = openDatabase(dbPath(), ['CREATE TABLE notes (text TEXT)'], { freshSchema: { version: 2, sql: 'CREATE TABLE other (x TEXT)' } });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([{ name: 'notes' }]);
    db.close();
  });

  it('upgrades an existing database by its migrations, never by the written-out schema', () => {
    const path = dbPath();
    openDatabase(path, ['CREATE TABLE notes (text TEXT)']).exec("INSERT INTO notes VALUES ('kept')");
    const schema = { version: 2, sql: 'CREATE TABLE notes (text TEXT, at TEXT); CREATE TABLE other (x TEXT)' };
    const db = openDatabase(path, ['CREATE TABLE notes (text TEXT)', 'ALTER TABLE notes ADD COLUMN at TEXT'], { freshSchema: schema });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([{ name: 'notes' }]);
    expect(db.prepare('SELECT text, at FROM notes').all()).toEqual([{ text: 'kept', at: null }]);
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

/** Every table's columns (name, type, NOT NULL, default, key) and every index's columns, as SQLite reports them. */
function shapeOf(db: Database.Database): unknown {
  const objects = db.prepare("SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all() as { type: string; name: string; tbl_name: string }[];
  return objects.map((object) => ({
    ...object,
    columns: object.type === 'table' ? db.pragma(`table_xinfo(${object.name})`) : db.pragma(`index_xinfo(${object.name})`),
    indexes: object.type === 'table' ? db.pragma(`index_list(${object.name})`) : undefined,
  }));
}
