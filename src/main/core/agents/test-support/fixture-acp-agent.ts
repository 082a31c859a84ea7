// A tiny ACP agent for tests, as the source of a Node program (CommonJS, no dependencies) so a test can write it
// anywhere, or pack it into an npm package. It says who it is and offers two logins; `--mode` picks what a prompt
// does: `ok` (a message, end of turn), `auth` (ACP's auth_required at the prompt), `unknown` (an update kind ACP
// does not have, then a message), `init-auth` / `session-auth` (auth_required already at initialize / session/new).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURE_AGENT_INFO = { name: 'fixture-agent', title: 'Fixture Agent', version: '1.2.3' };

export const FIXTURE_AGENT_JS = `#!/usr/bin/env node
const mode = (process.argv.find((a) => a.startsWith('--mode=')) || '--mode=ok').slice(7);
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
const update = (sessionId, update) => send({ method: 'session/update', params: { sessionId, update } });
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let end = buffer.indexOf('\\n'); end >= 0; end = buffer.indexOf('\\n')) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.method === 'initialize') {
      if (mode === 'init-auth') { send({ id: message.id, error: { code: -32000, message: 'Authentication required' } }); continue; }
      send({ id: message.id, result: { protocolVersion: 1, agentCapabilities: {},
        agentInfo: ${JSON.stringify(FIXTURE_AGENT_INFO)},
        authMethods: [
          { id: 'fixture-login', name: 'Log in in a terminal', type: 'terminal', args: ['--login'] },
          { id: 'fixture-key', name: 'Use an API key', description: 'Requires FIXTURE_API_KEY in the environment' },
        ] } });
    } else if (message.method === 'session/new') {
      if (mode === 'session-auth') { send({ id: message.id, error: { code: -32000, message: 'Authentication required' } }); continue; }
      send({ id: message.id, result: { sessionId: 'fixture-session' } });
    } else if (message.method === 'session/prompt') {
      const sessionId = message.params.sessionId;
      if (mode === 'auth') { send({ id: message.id, error: { code: -32000, message: 'Authentication required' } }); continue; }
      if (mode === 'unknown') update(sessionId, { sessionUpdate: 'repository_indexing', title: 'Indexing the repository', progress: 0.5 });
      update(sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Done here.' } });
      send({ id: message.id, result: { stopReason: 'end_turn' } });
    } else if (message.id !== undefined && message.method) {
      send({ id: message.id, error: { code: -32601, message: 'Method not found: ' + message.method } });
    }
  }
});
`;

/**
 * An npm package whose bin `bin` is the fixture agent, packed with `npm pack` into `dir`; returns the tarball's path.
 * Packing reads only the files here, so it needs no network.
 */
export function packFixtureAgent(dir: string, bin: string): string {
  const packageDir = join(dir, 'package');
  mkdirSync(packageDir, { recursive: true });
  writeFixtureAgent(packageDir);
  writeFileSync(join(packageDir, 'package.json'), JSON.stringify({ name: 'fixture-acp-agent', version: FIXTURE_AGENT_INFO.version, bin: { [bin]: 'fixture-agent.js' } }));
  const out = execFileSync('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: packageDir, encoding: 'utf8' });
  return join(dir, out.trim().split('\n').at(-1) ?? '');
}

/** Writes the fixture agent as `dir/fixture-agent.js` and returns its path. */
export function writeFixtureAgent(dir: string): string {
  const path = join(dir, 'fixture-agent.js');
  writeFileSync(path, FIXTURE_AGENT_JS, { mode: 0o755 });
  return path;
}
