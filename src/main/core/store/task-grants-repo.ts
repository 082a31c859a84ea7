// Typed reads and writes of "Always allow" answers: per task, agent and capability, the request it was given on.
import type { Db } from './database';

export interface TaskGrant {
  taskId: string;
  agent: string;
  /** A governance capability (`execute`, `edit`, `other`…). */
  capability: string;
  /** The audit-log request the person answered with "Always allow". */
  requestId: string;
  grantedAt: string;
}

export interface TaskGrantsRepo {
  /** The capabilities granted to `agent` in the task. */
  capabilitiesOf(taskId: string, agent: string): string[];
  /** Keeps the first answer for a capability: a second one changes nothing. */
  add(grant: TaskGrant): void;
  /** Forgets the task's answers (it was submitted again: a new task under the same id). */
  forget(taskId: string): void;
  /** Every answer kept, newest first. */
  list(): TaskGrant[];
}

interface GrantRow { task_id: string; agent: string; capability: string; request_id: string; granted_at: string }

export function createTaskGrantsRepo(db: Db, repo: string): TaskGrantsRepo {
  const capabilities = db.prepare<[string, string, string], { capability: string }>('SELECT capability FROM task_grants WHERE repo = ? AND task_id = ? AND agent = ?');
  const insert = db.prepare(`INSERT INTO task_grants (repo, task_id, agent, capability, request_id, granted_at) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (repo, task_id, agent, capability) DO NOTHING`);
  const remove = db.prepare('DELETE FROM task_grants WHERE repo = ? AND task_id = ?');
  const all = db.prepare<[string], GrantRow>('SELECT task_id, agent, capability, request_id, granted_at FROM task_grants WHERE repo = ? ORDER BY granted_at DESC, task_id, capability');
  return {
    capabilitiesOf: (taskId, agent) => capabilities.all(repo, taskId, agent).map((row) => row.capability),
    add: (grant) => { insert.run(repo, grant.taskId, grant.agent, grant.capability, grant.requestId, grant.grantedAt); },
    forget: (taskId) => { remove.run(repo, taskId); },
    list: () => all.all(repo).map((row) => ({ taskId: row.task_id, agent: row.agent, capability: row.capability, requestId: row.request_id, grantedAt: row.granted_at })),
  };
}

/** The same in memory: for a task service built without a database (unit tests). */
export function createMemoryTaskGrants(): TaskGrantsRepo {
  const grants: TaskGrant[] = [];
  return {
    capabilitiesOf: (taskId, agent) => grants.filter((g) => g.taskId === taskId && g.agent === agent).map((g) => g.capability),
    add(grant) {
      if (!grants.some((g) => g.taskId === grant.taskId && g.agent === grant.agent && g.capability === grant.capability)) grants.push(grant);
    },
    forget(taskId) {
      for (let index = grants.length - 1; index >= 0; index -= 1) if (grants[index]?.taskId === taskId) grants.splice(index, 1);
    },
    list: () => [...grants].sort((a, b) => b.grantedAt.localeCompare(a.grantedAt)),
  };
}
