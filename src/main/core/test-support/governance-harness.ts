// Test support: governance on its own — real SQLite, the real policy file and the real HTTP host on
// 127.0.0.1 — wired the way the core wires it, in a temp dir, with a clock the test moves.
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { GovernanceRecord } from '../../../shared/governance';
import { createEventBus } from '../events/event-bus';
import { createGovernanceRepo } from '../governance/governance-repo';
import { createGovernanceService, type GovernanceService } from '../governance/governance-service';
import { createPolicyFileStore } from '../governance/policy-file';
import { createEventsSocket } from '../http/events-socket';
import { addGovernanceRoutes } from '../http/governance-routes';
import { createRouter } from '../http/router';
import { createHttpHost, type HttpHost } from '../http/server';
import { openDatabase, type Db } from '../store/database';
import { createEventsRepo } from '../store/events-repo';

export const DESK_TOKEN = 'desk-token-for-governance-tests';

export interface JsonResponse {
  status: number;
  headers: Headers;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever shape each route answers
}

export interface GovernanceDesk {
  governance: GovernanceService;
  /** The repository root the /agent/* paths are relative to (a real path). */
  repoRoot: string;
  url: string;
  /** Every record the service reported through `onChange`, in order. */
  changes: GovernanceRecord[];
  clock: { now: Date; advance(ms: number): void };
  /** JSON request with the desk token unless `token` says otherwise (`null`: none). */
  call(method: string, path: string, body?: unknown, token?: string | null): Promise<JsonResponse>;
  close(): Promise<void>;
}

/** Starts governance over `root/data`, judging paths against `root/repo`; reuse `root` to restart over the same state. */
export async function startGovernanceDesk(root: string, options: { worktreeOf?: (taskId: string) => string | undefined } = {}): Promise<GovernanceDesk> {
  const repoRoot = join(root, 'repo');
  mkdirSync(repoRoot, { recursive: true });
  const dataDir = join(root, 'data');
  const db: Db = openDatabase(join(dataDir, 'desk.sqlite'));
  const clock = { now: new Date('2025-01-01T10:00:00.000Z'), advance(ms: number) { clock.now = new Date(clock.now.getTime() + ms); } };
  const changes: GovernanceRecord[] = [];
  const governance = createGovernanceService({
    repo: createGovernanceRepo(db, realpathSync(repoRoot)),
    policyStore: createPolicyFileStore(dataDir),
    now: () => clock.now,
    onChange: (record) => changes.push(record),
  });

  const router = createRouter();
  addGovernanceRoutes(router, { governance, repoRoot: realpathSync(repoRoot), ...(options.worktreeOf && { worktreeOf: options.worktreeOf }) });
  const events = createEventsRepo(db, repoRoot);
  const http: HttpHost = createHttpHost({
    router,
    security: { token: DESK_TOKEN, allowedHosts: [], allowedOrigins: [] },
    eventsSocket: createEventsSocket({ bus: createEventBus(), events }),
    log: () => {},
    resolveAgentToken: (token) => governance.agentForToken(token),
    checkAnswers: true,
  });
  const address = await http.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${address.port}`;

  return {
    governance, repoRoot: realpathSync(repoRoot), url, changes, clock,
    async call(method, path, body, token = DESK_TOKEN) {
      const response = await fetch(new URL(path, url), {
        method,
        headers: {
          ...(token !== null && { authorization: `Bearer ${token}` }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
    },
    async close() {
      await http.close();
      events.close();
      db.close();
    },
  };
}
