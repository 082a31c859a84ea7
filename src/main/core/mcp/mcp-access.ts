// How agents reach the desk's MCP server: a token per run of a task (minted when the run starts, revoked when it
// ends), the server entry handed to the agent in `session/new`, and the /mcp answer for a presented token.
import type { AddressInfo } from 'node:net';
import { MCP_PATH } from '../../../shared/mcp';
import type { RunContext, RunOutcome } from '../tasks/task-runner';
import type { McpEndpoint } from './mcp-endpoint';
import type { McpCaller } from './mcp-tools';
import { createTaskTokens } from './task-tokens';

/** The desk's MCP server as an ACP `http` MCP server entry (without its name). */

export interface McpAccess {
  /** The /mcp answer for a request with `token`; undefined when the token is no running task's. */
  handle(request: Request, token: string, body: () => Promise<unknown>): Promise<Response | undefined>;
  /** Where the desk listens, once it does: the URL agents get follows it. */
  listening(address: AddressInfo): void;
  /** Runs a task's turn with its own token and the server entry in its context; the token dies with the run. */
  wrapRun(run: (context: RunContext) => Promise<RunOutcome>): (context: RunContext) => Promise<RunOutcome>;
}

export interface McpAccessDeps {
  /** The endpoint, made on first use (its SDK loads then). */
  endpoint(): McpEndpoint;
  /** The running task's agent and worktree, for governance. */
  callerOf(taskId: string): McpCaller | undefined;
}

export function createMcpAccess(deps: McpAccessDeps): McpAccess {
  const tokens = createTaskTokens();
  let url: string | undefined;
  let endpoint: McpEndpoint | undefined;

  return {
    async handle(request, token, body) {
      const taskId = tokens.taskFor(token);
      const caller = taskId === undefined ? undefined : deps.callerOf(taskId);
      if (!caller) return undefined;
      endpoint ??= deps.endpoint();
      return endpoint.handle(request, caller, request.method === 'POST' ? await body() : undefined);
    },
    listening(address) {
      // Agents always call over loopback, whatever address the desk listens on.
      url = `http://${address.family === 'IPv6' && address.address === '::1' ? '[::1]' : '127.0.0.1'}:${address.port}${MCP_PATH}`;
    },
    wrapRun(run) {
      return async (context) => {
        if (url === undefined) return run(context);
        const token = tokens.issue(context.task.id);
        try {
          return await run({ ...context, mcp: { url, headers: [{ name: 'Authorization', value: `Bearer ${token}` }] } });
        } finally {
          tokens.revoke(context.task.id);
        }
      };
    },
  };
}
