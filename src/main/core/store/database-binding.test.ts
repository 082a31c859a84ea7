// The desktop app opens the database with better-sqlite3's `nativeBinding` (its Electron build); Node with node_modules' own, named by the desk.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { packagedSqliteBinding } from './sqlite-binding';

const nodeBuild = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');

describe('the SQLite binary the database loads', () => {
  it('is the one named by nativeBinding', () => {
    const db = openDatabase(':memory:', undefined, { nativeBinding: nodeBuild });
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThan(0);
    db.close();
  });

  it('is node_modules\' own build when none is named, found as better-sqlite3 finds it', () => {
    expect(packagedSqliteBinding()).toBe(nodeBuild);
    const db = openDatabase(':memory:');
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThan(0);
    db.close();
  });

  it('fails clearly when nativeBinding names no binary, rather than falling back to another', () => {
    expect(() => openDatabase(':memory:', undefined, { nativeBinding: join(dirname(nodeBuild), 'missing.node') })).toThrow(/missing\.node/);
  });
});
