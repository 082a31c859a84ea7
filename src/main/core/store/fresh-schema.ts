// The schema every migration in migrations.ts leads to, folded from them into one script (each ALTER TABLE's column
// written into its CREATE TABLE): a new database is made from it in one step instead of replaying each migration
// (their twenty ALTER TABLEs each make SQLite read the schema again: about half of opening a new database). The
// migrations stay the one source; this is only a shortcut, and database.test.ts checks it makes the same tables,
// columns and indexes as replaying them. Pure.

/** A schema written out for a version, for a new database. */
export interface FreshSchema {
  version: number;
  sql: string;
}

type Part = { kind: 'table'; name: string; columns: string[]; constraints: string[] } | { kind: 'statement'; sql: string };

/** What a table's body holds that is not a column: written after every column, as SQLite requires. */
const TABLE_CONSTRAINT = /^(PRIMARY\s+KEY|UNIQUE|CHECK|FOREIGN\s+KEY|CONSTRAINT)\b/i;

/**
 * The script that makes in one step the schema `migrations` lead to, or undefined when one of them does something
 * this fold does not know (then a new database replays them). Knows CREATE TABLE, ALTER TABLE … ADD COLUMN, CREATE
 * INDEX, and UPDATE/DELETE, which change no row of a new database's empty tables.
 */
export function freshSchemaOf(migrations: readonly string[]): FreshSchema | undefined {
  const parts: Part[] = [];
  const tables = new Map<string, Extract<Part, { kind: 'table' }>>();
  for (const statement of migrations.flatMap(statementsOf)) {
    const created = /^CREATE\s+TABLE\s+(\w+)\s*\(([\s\S]*)\)$/i.exec(statement);
    const added = /^ALTER\s+TABLE\s+(\w+)\s+ADD\s+COLUMN\s+([\s\S]+)$/i.exec(statement);
    if (created?.[1] !== undefined && created[2] !== undefined) {
      const entries = splitTopLevel(created[2]);
      const table = { kind: 'table' as const, name: created[1], columns: entries.filter((entry) => !TABLE_CONSTRAINT.test(entry)), constraints: entries.filter((entry) => TABLE_CONSTRAINT.test(entry)) };
      if (tables.has(table.name)) return undefined;
      tables.set(table.name, table);
      parts.push(table);
    } else if (added?.[1] !== undefined && added[2] !== undefined) {
      const table = tables.get(added[1]);
      if (table === undefined) return undefined;
      table.columns.push(added[2]);
    } else if (/^CREATE\s+(UNIQUE\s+)?INDEX\b/i.test(statement)) {
      parts.push({ kind: 'statement', sql: statement });
    } else if (!/^(UPDATE|DELETE)\b/i.test(statement)) {
      return undefined;
    }
  }
  const sql = parts.map((part) => (part.kind === 'statement' ? `${part.sql};`
    : `CREATE TABLE ${part.name} (\n  ${[...part.columns, ...part.constraints].join(',\n  ')}\n);`)).join('\n');
  return { version: migrations.length, sql };
}

/** A migration's statements, trimmed; `--` comment lines dropped. Assumes no `;` inside a literal (none has one). */
function statementsOf(migration: string): string[] {
  const withoutComments = migration.split('\n').filter((line) => !line.trim().startsWith('--')).join('\n');
  return withoutComments.split(';').map((statement) => statement.trim()).filter((statement) => statement !== '');
}

/** `a, b (c, d), e` → `a`, `b (c, d)`, `e`: split at commas outside parentheses. */
function splitTopLevel(body: string): string[] {
  const entries: string[] = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at < body.length; at += 1) {
    const char = body[at];
    if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    else if (char === ',' && depth === 0) {
      entries.push(body.slice(start, at).trim());
      start = at + 1;
    }
  }
  entries.push(body.slice(start).trim());
  return entries.filter((entry) => entry !== '');
}
