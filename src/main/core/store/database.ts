// Opens the desk's SQLite database: WAL, migrations stamped in user_version, refusal of a newer schema.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

export class DatabaseTooNewError extends Error {
  readonly code = 'database_too_new';
  constructor(readonly path: string, readonly found: number, readonly supported: number) {
    super(`The database ${path} has schema version ${found}, but this Assignment Desk understands up to ${supported}. Update the app or use another --data-dir.`);
  }
}

export interface OpenDatabaseOptions {
  /** A better-sqlite3 binary built for this runtime (Electron's), instead of the one in node_modules. */
  nativeBinding?: string;
}

export function openDatabase(path: string, migrations: readonly string[] = MIGRATIONS, options: OpenDatabaseOptions = {}): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, options.nativeBinding !== undefined ? { nativeBinding: options.nativeBinding } : {});
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL is durable across app crashes in WAL mode; only a power loss can drop the last commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    migrate(db, path, migrations);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function migrate(db: Db, path: string, migrations: readonly string[]): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > migrations.length) throw new DatabaseTooNewError(path, version, migrations.length);
  for (let next = version; next < migrations.length; next += 1) {
    db.transaction(() => {
      db.exec(migrations[next] as string);
      db.pragma(`user_version = ${next + 1}`);
    })();
  }
}
