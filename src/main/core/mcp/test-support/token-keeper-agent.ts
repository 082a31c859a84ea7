// Test support: a stand-in for a vendor ACP agent that takes HTTP MCP servers. It writes the servers it got in
// `session/new` to the file named by its first argument (so a test can call the desk's MCP server with the task's
// own token, as that agent would), and ends each turn after the number of milliseconds its prompt says.
export const TOKEN_KEEPER_AGENT = `
const { renameSync, writeFileSync } = require('node:fs');
const out = process.argv[2];
let buffer = '';
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let end = buffer.indexOf('\\n'); end >= 0; end = buffer.indexOf('\\n')) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.method === 'initialize') send({ id: message.id, result: { protocolVersion: 1, agentCapabilities: { mcpCapabilities: { http: true } }, authMethods: [] } });
    else if (message.method === 'session/new') {
      // Written whole, then renamed: the test waits for the file and must never read half of it.
      writeFileSync(out + '.part', JSON.stringify(message.params.mcpServers));
      renameSync(out + '.part', out);
      send({ id: message.id, result: { sessionId: 's1' } });
    } else if (message.method === 'session/prompt') {
      const ms = Number(message.params.prompt[0].text) || 0;
      setTimeout(() => send({ id: message.id, result: { stopReason: 'end_turn' } }), ms);
    }
  }
});
`;
