// Typed reads and writes of the governance audit log for one repository; callers never see SQL.
import type { GovernanceRecord, GovernanceState } from '../../../shared/governance';
import type { Db } from '../store/database';

export interface GovernanceFilter {
  agentId?: string;
  taskId?: string;
  state?: GovernanceState;
  limit: number;
  /** A request id: list only requests made before it (the next page). */
  before?: string;
}

export interface GovernanceRepo {
  insert(record: GovernanceRecord): void;
  /**
   * Replaces the stored record when it is still in `expectedState`; false when another writer moved it
   * first, which is how "the first answer wins" holds even across connections to the same file.
   */
  update(record: GovernanceRecord, expectedState: GovernanceState): boolean;
  get(id: string): GovernanceRecord | undefined;
  /** Newest first. An unknown `before` lists nothing. */
  list(filter: GovernanceFilter): GovernanceRecord[];
}

interface Row { body: string }

export function createGovernanceRepo(db: Db, repo: string): GovernanceRepo {
  const insert = db.prepare(`INSERT INTO governance_requests (repo, id, agent_id, task_id, state, created_at, body)
    VALUES (@repo, @id, @agentId, @taskId, @state, @createdAt, @body)`);
  const update = db.prepare(`UPDATE governance_requests SET state = @state, body = @body
    WHERE repo = @repo AND id = @id AND state = @expectedState`);
  const selectOne = db.prepare<[string, string], Row>('SELECT body FROM governance_requests WHERE repo = ? AND id = ?');
  const cursorOf = db.prepare<[string, string], { created_at: string; rowid: number }>(
    'SELECT created_at, rowid FROM governance_requests WHERE repo = ? AND id = ?');
  // rowid breaks ties between requests made in the same millisecond, in the order they were written.
  const selectPage = db.prepare<Record<string, unknown>, Row>(`SELECT body FROM governance_requests
    WHERE repo = @repo
      AND (@agentId IS NULL OR agent_id = @agentId)
      AND (@taskId IS NULL OR task_id = @taskId)
      AND (@state IS NULL OR state = @state)
      AND (@beforeAt IS NULL OR (created_at, rowid) < (@beforeAt, @beforeRowid))
    ORDER BY created_at DESC, rowid DESC
    LIMIT @limit`);

  return {
    insert(record) {
      insert.run({ repo, id: record.id, agentId: record.agentId, taskId: record.taskId ?? null, state: record.state, createdAt: record.createdAt, body: JSON.stringify(record) });
    },
    update(record, expectedState) {
      return update.run({ repo, id: record.id, state: record.state, expectedState, body: JSON.stringify(record) }).changes === 1;
    },
    get(id) {
      const row = selectOne.get(repo, id);
      return row ? (JSON.parse(row.body) as GovernanceRecord) : undefined;
    },
    list({ agentId, taskId, state, limit, before }) {
      let beforeAt: string | null = null;
      let beforeRowid: number | null = null;
      if (before !== undefined) {
        const cursor = cursorOf.get(repo, before);
        if (!cursor) return [];
        beforeAt = cursor.created_at;
        beforeRowid = cursor.rowid;
      }
      return selectPage.all({ repo, agentId: agentId ?? null, taskId: taskId ?? null, state: state ?? null, beforeAt, beforeRowid, limit })
        .map((row) => JSON.parse(row.body) as GovernanceRecord);
    },
  };
}
