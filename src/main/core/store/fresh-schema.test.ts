// Folding migrations into the one script a new database is made from.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { freshSchemaOf } from './fresh-schema';

const columnsOf = (sql: string, table: string) => {
  const db = new Database(':memory:');
  db.exec(sql);
  const columns = (db.pragma(`table_info(${table})`) as { name: string; pk: number }[]).map(({ name, pk }) => `${name}${pk ? ` (key ${pk})` : ''}`);
  db.close();
  return columns;
};

describe('the schema folded from the migrations', () => {
  it('writes each added column into its table, before the table\'s key, in the order the migrations add them', () => {
    const fresh = freshSchemaOf([
      'CREATE TABLE tasks (\n  repo TEXT NOT NULL,\n  id TEXT NOT NULL,\n  PRIMARY KEY (repo, id)\n);\nCREATE INDEX tasks_by_id ON tasks (id);',
      '-- two at once\nALTER TABLE tasks ADD COLUMN a TEXT;\nALTER TABLE tasks ADD COLUMN b INTEGER NOT NULL DEFAULT 0;',
      "ALTER TABLE tasks ADD COLUMN wait TEXT NOT NULL DEFAULT 'completed';\nUPDATE tasks SET a = 'x' WHERE b > 0;",
    ]);
    expect(fresh?.version).toBe(3);
    expect(columnsOf(fresh?.sql ?? '', 'tasks')).toEqual(['repo (key 1)', 'id (key 2)', 'a', 'b', 'wait']);
    expect(fresh?.sql).toContain('CREATE INDEX tasks_by_id ON tasks (id);');
  });

  it('gives up, so that a new database replays the migrations, on a statement it cannot fold', () => {
    expect(freshSchemaOf(['CREATE TABLE notes (text TEXT)', "INSERT INTO notes VALUES ('a row a new database must have')"])).toBeUndefined();
    expect(freshSchemaOf(['CREATE TABLE notes (text TEXT)', 'ALTER TABLE notes DROP COLUMN text'])).toBeUndefined();
    expect(freshSchemaOf(['ALTER TABLE nowhere ADD COLUMN x TEXT'])).toBeUndefined();
  });
});
