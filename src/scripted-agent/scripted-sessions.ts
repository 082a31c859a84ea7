// The sessions one scripted agent process serves, and the turn each may be running.
import { newId } from './ids';
import type { McpServer } from '@agentclientprotocol/sdk';

export interface ScriptedSession {
  readonly id: string;
  readonly cwd: string;
  /** The MCP servers the client gave in `session/new`. */
  readonly mcpServers: readonly McpServer[];
}

export interface SessionTable {
  create(cwd: string, mcpServers?: readonly McpServer[]): ScriptedSession;
  get(sessionId: string): ScriptedSession | undefined;
  /** The most recently created session (the Kandev dialect lets prompts omit the id). */
  latest(): ScriptedSession | undefined;
  /** Starts a turn; undefined when the session is already running one. */
  beginTurn(session: ScriptedSession): AbortController | undefined;
  endTurn(session: ScriptedSession, turn: AbortController): void;
  /** Cancels the session's running turn, if any. */
  cancel(session: ScriptedSession): void;
  cancelAll(): void;
}

export function createSessionTable(): SessionTable {
  const sessions = new Map<string, ScriptedSession>();
  const turns = new Map<string, AbortController>();
  let latest: ScriptedSession | undefined;

  return {
    create(cwd, mcpServers = []) {
      const session = { id: newId(), cwd, mcpServers };
      sessions.set(session.id, session);
      latest = session;
      return session;
    },
    get: (sessionId) => sessions.get(sessionId),
    latest: () => latest,
    beginTurn(session) {
      if (turns.has(session.id)) return undefined;
      const turn = new AbortController();
      turns.set(session.id, turn);
      return turn;
    },
    endTurn(session, turn) {
      if (turns.get(session.id) === turn) turns.delete(session.id);
    },
    cancel(session) {
      turns.get(session.id)?.abort();
    },
    cancelAll() {
      for (const turn of turns.values()) turn.abort();
    },
  };
}
