// The desk's MCP server on its own HTTP port (streamable HTTP, stateless: each request gets a fresh server bound to
// the calling task, answered as JSON). The SDK loads with the first /mcp request, not with the desk.
import type * as McpServerModule from '@modelcontextprotocol/sdk/server/mcp.js';
import type * as TransportModule from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LinkDependencyInput, ListTasksInput, MCP_SERVER_NAME, ProposeTaskInput, ReadDiffInput } from '../../../shared/mcp';
import type { McpCaller, McpTools, ToolAnswer } from './mcp-tools';

export interface McpEndpoint {
  /** Answers one HTTP request to /mcp for the task whose token came with it; a POST's body is read already. */
  handle(request: Request, caller: McpCaller, parsedBody?: unknown): Promise<Response>;
}

type Sdk = [typeof McpServerModule, typeof TransportModule];

export function createMcpEndpoint(deps: { tools: McpTools; version: string }): McpEndpoint {
  let sdk: Promise<Sdk> | undefined;
  const { tools } = deps;

  return {
    async handle(request, caller, parsedBody) {
      const [{ McpServer }, { WebStandardStreamableHTTPServerTransport }] = await (sdk ??= Promise.all([
        import('@modelcontextprotocol/sdk/server/mcp.js'),
        import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      ]));
      const server = new McpServer({ name: MCP_SERVER_NAME, title: 'Assignment Desk', version: deps.version }, {
        instructions: 'The Assignment Desk board your task runs on: list its tasks, propose new ones (a person or the policy accepts them before they run), make a queued task wait for another, and read a task\'s changes.',
      });
      server.registerTool('list_tasks', {
        description: 'The desk\'s tasks with their status, review, dependencies and who proposed them.',
        inputSchema: ListTasksInput,
        annotations: { readOnlyHint: true },
      }, async (input) => result(await tools.listTasks(caller, input)));
      server.registerTool('propose_task', {
        description: 'Propose a new task for the board. It appears as proposed by your task and runs only once a person (or the policy) accepts it.',
        inputSchema: ProposeTaskInput,
      }, async (input) => result(await tools.proposeTask(caller, input)));
      server.registerTool('link_dependency', {
        description: 'Make a queued task wait for another task. A link that would close a cycle is refused.',
        inputSchema: LinkDependencyInput,
      }, async (input) => result(await tools.linkDependency(caller, input)));
      server.registerTool('read_diff', {
        description: 'A task\'s changes against the commit it started from, file by file.',
        inputSchema: ReadDiffInput,
        annotations: { readOnlyHint: true },
      }, async (input) => result(await tools.readDiff(caller, input)));

      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
      } finally {
        void server.close().catch(() => undefined);
      }
    },
  };
}

/** A tool's answer as MCP content: text for any client, structured for those that read it; errors flagged. */
function result(answer: ToolAnswer): CallToolResult {
  if (!answer.ok) return { isError: true, content: [{ type: 'text', text: JSON.stringify(answer.error) }], structuredContent: answer.error };
  const text = typeof answer.value === 'string' ? answer.value : JSON.stringify(answer.value);
  return { content: [{ type: 'text', text }] };
}
