// Opens the desk's SQLite database: WAL, migrations stamped in user_version (a new database made from the schema they
// lead to, folded from them by fresh-schema.ts), refusal of a newer schema.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type FreshSchema, freshSchemaOf } from './fresh-schema';
import { MIGRATIONS } from './migrations';
import { packagedSqliteBinding } from './sqlite-binding';
import { DeskError } from '../../../shared/desk-error';

export type Db = Database.Database;

/** The desk's own migrations folded into one script (fresh-schema.ts), once per process: a few string operations. */
const DESK_FRESH_SCHEMA = freshSchemaOf(MIGRATIONS);

const databaseTooNew = (path: string, found: number, supported: number) => new DeskError('unavailable', 'database_too_new',
  `The database ${path} has schema version ${found}, but this Assignment Desk understands up to ${supported}. Update the app or use another --data-dir.`,
  { path, found, supported });

export interface OpenDatabaseOptions {
  /** A better-sqlite3 binary built for this runtime (Electron's), instead of the one in node_modules (sqlite-binding.ts). */
  nativeBinding?: string;
  /**
   * What a new database is made from when it is for the version the migrations reach (else they are replayed).
   * Default: the desk's migrations folded into one (fresh-schema.ts) with the desk's migrations, none with others.
   */
  freshSchema?: FreshSchema;
}

export function openDatabase(path: string, migrations: readonly string[] = MIGRATIONS, options: OpenDatabaseOptions = {}): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  // Always named: in the headless host's bundle better-sqlite3 could not find its own (sqlite-binding.ts).
  const db = new Database(path, { nativeBinding: options.nativeBinding ?? packagedSqliteBinding() });
  try {
    // A file made just now holds nothing yet: switching it to WAL need not wait for the disk (four syncs, the
    // larger part of a first start on a busy disk). A power cut in that moment loses an empty database.
    const empty = (db.pragma('page_count', { simple: true }) as number) === 0;
    if (empty) {
      db.pragma('synchronous = OFF');
      // Only a file with no page yet takes the mode without a VACUUM, and switching to WAL writes the first page.
      db.pragma('auto_vacuum = INCREMENTAL');
    }
    db.pragma('journal_mode = WAL');
    // NORMAL is durable across app crashes in WAL mode; only a power loss can drop the last commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    // The WAL is reused after each checkpoint but never shrinks by itself; this bounds what a burst leaves behind.
    db.pragma('journal_size_limit = 16777216');
    // A checkpoint copies every page the WAL holds into the database and syncs it, inside some commit. Letting the
    // WAL reach that same 16 MiB first (4,096 pages, not SQLite's 1,000) copies a page rewritten by many commits (an
    // index's last leaf, during a burst of submissions) once instead of every few commits: about 10% more intake.
    db.pragma('wal_autocheckpoint = 4096');
    migrate(db, path, migrations, 'freshSchema' in options ? options.freshSchema : migrations === MIGRATIONS ? DESK_FRESH_SCHEMA : undefined);
    useIncrementalVacuum(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Pruned events give their pages back to the file system (`PRAGMA incremental_vacuum`), which needs
 * auto_vacuum = INCREMENTAL. A new database gets it before its first table; an older one needs one VACUUM,
 * done here once (it rewrites the file, so it takes a while on a large database) rather than as a numbered
 * migration, because VACUUM cannot run inside a transaction and this check stays right even if it is interrupted.
 */
function useIncrementalVacuum(db: Db): void {
  if ((db.pragma('auto_vacuum', { simple: true }) as number) === 2) return;
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
}

/**
 * Every migration the database has not seen, in one transaction: an upgrade happens whole or not at all, and a new
 * database is made with one commit instead of one per migration (a few milliseconds of a first start), from `fresh`
 * when that is written for the version the migrations reach.
 */
function migrate(db: Db, path: string, migrations: readonly string[], fresh: FreshSchema | undefined): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > migrations.length) throw databaseTooNew(path, version, migrations.length);
  if (version === migrations.length) return;
  db.transaction(() => {
    if (version === 0 && fresh?.version === migrations.length) db.exec(fresh.sql);
    else for (let next = version; next < migrations.length; next += 1) db.exec(migrations[next] as string);
    db.pragma(`user_version = ${migrations.length}`);
  })();
}
