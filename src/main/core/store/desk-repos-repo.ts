// The repositories a desk keeps open (in order, the default first) and the worktree setup its settings give each.
import { RepoConfig } from '../../../shared/repo-config';
import type { Db } from './database';

export interface DeskRepoRow {
  name: string;
  /** The top level of its work tree, as openRepository found it. */
  path: string;
  /** The setup used when the repository has no `.desk/config.json` of its own. */
  setup?: RepoConfig;
}

export interface DeskReposRepo {
  /** In the order they were opened. */
  list(): DeskRepoRow[];
  /** Adds the repository at the end, or renames/moves nothing when one of that name is kept already. */
  put(row: Omit<DeskRepoRow, 'setup'>): void;
  remove(name: string): void;
  setSetup(name: string, setup: RepoConfig | undefined): void;
}

interface Row { name: string; path: string; position: number; setup: string | null }

export function createDeskReposRepo(db: Db, scope: string): DeskReposRepo {
  const selectAll = db.prepare<[string], Row>('SELECT name, path, position, setup FROM desk_repos WHERE scope = ? ORDER BY position');
  const insert = db.prepare(`INSERT INTO desk_repos (scope, name, path, position) VALUES (?, ?, ?,
    (SELECT COALESCE(MAX(position), -1) + 1 FROM desk_repos WHERE scope = ?)) ON CONFLICT (scope, name) DO UPDATE SET path = excluded.path`);
  const remove = db.prepare<[string, string]>('DELETE FROM desk_repos WHERE scope = ? AND name = ?');
  const updateSetup = db.prepare<[string | null, string, string]>('UPDATE desk_repos SET setup = ? WHERE scope = ? AND name = ?');
  return {
    list: () => selectAll.all(scope).map((row) => ({
      name: row.name, path: row.path,
      // A setup the schema no longer accepts is left out rather than stopping the desk.
      ...(row.setup !== null && parsedSetup(row.setup)),
    })),
    put: ({ name, path }) => { insert.run(scope, name, path, scope); },
    remove: (name) => { remove.run(scope, name); },
    setSetup: (name, setup) => { updateSetup.run(setup === undefined ? null : JSON.stringify(setup), scope, name); },
  };
}

function parsedSetup(text: string): { setup?: RepoConfig } {
  try {
    const parsed = RepoConfig.safeParse(JSON.parse(text));
    return parsed.success ? { setup: parsed.data } : {};
  } catch {
    return {};
  }
}
