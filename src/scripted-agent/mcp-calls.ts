// The scripted agent as an MCP client: calls a tool of the HTTP MCP server its client gave it in `session/new`,
// with the headers given there (the desk's: the task's own token). The SDK client loads with the first call.
import type { McpServer } from '@agentclientprotocol/sdk';

/** What a script's `mcp` command gets back: the tool's text, and whether the tool said it failed. */
export interface McpCallResult { isError: boolean; text: string }
export type McpCall = (tool: string, args: Record<string, unknown>) => Promise<McpCallResult>;

/** A caller for the first HTTP server offered, or undefined when the session got none. */
export function mcpCaller(servers: readonly McpServer[]): McpCall | undefined {
  const server = servers.find((entry): entry is Extract<McpServer, { type: 'http' }> => 'type' in entry && entry.type === 'http');
  if (!server) return undefined;
  const headers = Object.fromEntries(server.headers.map((header) => [header.name, header.value]));
  return async (tool, args) => {
    const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ]);
    const client = new Client({ name: 'scripted-agent', version: '0.1.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
    try {
      const result = await client.callTool({ name: tool, arguments: args });
      const content = Array.isArray(result.content) ? result.content as { type: string; text?: string }[] : [];
      return { isError: result.isError === true, text: content.map((block) => block.text ?? '').join('\n') };
    } finally {
      await client.close();
    }
  };
}
