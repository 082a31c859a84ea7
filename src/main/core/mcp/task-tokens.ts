// Per-task MCP tokens: minted when a task's agent session starts, revoked when that run ends, kept in memory only
// (a restart invalidates them all). Only the sha256 of each is held; a lookup compares against every one.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export interface TaskTokens {
  /** A new token for the task's current run, replacing any earlier one. */
  issue(taskId: string): string;
  /** The token no longer opens anything (the run ended). */
  revoke(taskId: string): void;
  /** The task a presented token belongs to, compared in constant time; undefined for any other string. */
  taskFor(token: string): string | undefined;
}

export function createTaskTokens(): TaskTokens {
  const digests = new Map<string, Buffer>();
  return {
    issue(taskId) {
      const token = `mcp_${randomBytes(32).toString('base64url')}`;
      digests.set(taskId, sha256(token));
      return token;
    },
    revoke(taskId) {
      digests.delete(taskId);
    },
    taskFor(token) {
      const presented = sha256(token);
      let found: string | undefined;
      // Every live token is compared, so the time taken does not tell which tasks run.
      for (const [taskId, digest] of digests) {
        if (timingSafeEqual(digest, presented) && found === undefined) found = taskId;
      }
      return found;
    },
  };
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
