// Which repository a stored task belongs to: rows from before several repositories (and the default's own) carry
// no name and read as the default's, so the default may be renamed; other repositories' tasks keep theirs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { MIGRATIONS } from './migrations';
import { createDeskReposRepo } from './desk-repos-repo';
import { createTasksRepo, type TaskRecord } from './tasks-repo';

let dir: string | undefined;
afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); dir = undefined; });
const dbPath = () => join((dir = mkdtempSync(join(tmpdir(), 'desk-db-'))), 'desk.sqlite');

const task = (id: string, repo?: string): Omit<TaskRecord, 'seq' | 'workingMs'> => ({
  id, prompt: 'p', dependencies: [], agent: 'a', status: 'queued', review: 'pending', submittedAt: 't', updatedAt: 't',
  baseBranch: 'main', attempt: 0, ...(repo !== undefined && { repo }),
});

describe('a task\'s repository in the database', () => {
  it('reads rows written before several repositories as the default repository\'s tasks', () => {
    const path = dbPath();
    const before = openDatabase(path, MIGRATIONS.slice(0, -1));
    before.prepare(`INSERT INTO tasks (repo, id, seq, prompt, dependencies, agent, status, submitted_at, updated_at, base_branch)
      VALUES ('/scope', 'old', 1, 'p', '[]', 'a', 'completed', 't', 't', 'main')`).run();
    before.close();
    const db = openDatabase(path);
    expect(createTasksRepo(db, '/scope', { defaultRepo: 'app' }).get('old')?.repo).toBe('app');
    db.close();
  });

  it('stores the default repository\'s tasks without a name, and the others\' with theirs', () => {
    const db = openDatabase(dbPath());
    const tasks = createTasksRepo(db, '/scope', { defaultRepo: 'app' });
    tasks.putSubmission(task('home', 'app'));
    tasks.putSubmission(task('there', 'api'));
    expect(createTasksRepo(db, '/scope', { defaultRepo: 'renamed' }).list().map((t) => [t.id, t.repo])).toEqual([['home', 'renamed'], ['there', 'api']]);
    expect(createTasksRepo(db, '/scope').get('home')?.repo).toBeUndefined();
    db.close();
  });

  it('keeps the desk\'s repositories in the order they were opened, with their setup', () => {
    const db = openDatabase(dbPath());
    const repos = createDeskReposRepo(db, '/scope');
    repos.put({ name: 'app', path: '/scope' });
    repos.put({ name: 'api', path: '/src/api' });
    repos.put({ name: 'web', path: '/src/web' });
    repos.setSetup('api', { setup: 'npm ci', copy: [] });
    repos.remove('app');
    expect(repos.list()).toEqual([{ name: 'api', path: '/src/api', setup: { setup: 'npm ci', copy: [] } }, { name: 'web', path: '/src/web' }]);
    expect(createDeskReposRepo(db, '/elsewhere').list()).toEqual([]);
    db.close();
  });
});
