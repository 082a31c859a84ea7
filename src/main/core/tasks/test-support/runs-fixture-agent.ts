// An ACP agent for the tests of how a run ends, as a Node program's source (CommonJS, no dependencies). `--mode` picks
// what it does: `modes` (offers session modes like codex-acp; its prompt writes `mode.txt` with the mode it is in),
// `nothing` (a tool call and a command that fail, no file changed), `internal` (logs a cause on stderr, then answers
// the prompt with a bare "Internal error"), `internal-silent` (the same with no cause anywhere), `crash` (logs a cause
// and exits mid-turn), `stall` (logs a retry on stderr, then says nothing until cancelled).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const RUNS_FIXTURE_JS = `#!/usr/bin/env node
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const mode = (process.argv.find((a) => a.startsWith('--mode=')) || '--mode=modes').slice(7);
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
const update = (sessionId, update) => send({ method: 'session/update', params: { sessionId, update } });
const modes = ['read-only', 'agent', 'agent-full-access'];
let currentMode = 'agent';
let cwd = process.cwd();
let nextId = 1000;
const waiting = new Map();
const ask = (method, params) => new Promise((resolve, reject) => {
  const id = nextId++;
  waiting.set(id, { resolve, reject });
  send({ id, method, params });
});
async function prompt(message) {
  const sessionId = message.params.sessionId;
  if (mode === 'modes') {
    writeFileSync(join(cwd, 'mode.txt'), currentMode + '\\n');
    update(sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Working in mode ' + currentMode + '.' } });
  } else if (mode === 'nothing') {
    update(sessionId, { sessionUpdate: 'tool_call', toolCallId: 'run-1', title: 'Run npm test', kind: 'execute', status: 'in_progress' });
    update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'run-1', status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: 'bwrap: execvp codex-linux-sandbox: No such file or directory' } }] });
    const { terminalId } = await ask('terminal/create', { sessionId, command: 'sh', args: ['-c', 'echo no such target >&2; exit 3'], cwd });
    await ask('terminal/wait_for_exit', { sessionId, terminalId });
    await ask('terminal/release', { sessionId, terminalId });
    update(sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'I could not run the tests.' } });
  } else if (mode === 'internal' || mode === 'internal-silent') {
    if (mode === 'internal') {
      process.stderr.write('Reconnecting... 1/3\\n');
      process.stderr.write('API Error: 500 {"error":"upstream model overloaded"}\\n');
    }
    send({ id: message.id, error: { code: -32603, message: 'Internal error' } });
    return;
  } else if (mode === 'crash') {
    process.stderr.write('fatal: model endpoint refused the connection\\n', () => process.exit(1));
    return;
  } else if (mode === 'stall') {
    process.stderr.write('Request failed with status 429, retrying in 30s\\n');
    process.stderr.write('Reconnecting... waiting for network\\n');
    return;
  }
  send({ id: message.id, result: { stopReason: 'end_turn' } });
}
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let end = buffer.indexOf('\\n'); end >= 0; end = buffer.indexOf('\\n')) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.method === undefined && waiting.has(message.id)) {
      const { resolve, reject } = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error) reject(new Error(message.error.message)); else resolve(message.result);
    } else if (message.method === 'initialize') {
      send({ id: message.id, result: { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name: 'runs-fixture', version: '0.1.0' } } });
    } else if (message.method === 'session/new') {
      cwd = message.params.cwd;
      send({ id: message.id, result: { sessionId: 'runs-session', ...(mode === 'modes' && {
        modes: { availableModes: modes.map((id) => ({ id, name: id })), currentModeId: currentMode } }) } });
    } else if (message.method === 'session/set_mode') {
      if (!modes.includes(message.params.modeId)) { send({ id: message.id, error: { code: -32602, message: 'No mode ' + message.params.modeId } }); continue; }
      currentMode = message.params.modeId;
      send({ id: message.id, result: {} });
    } else if (message.method === 'session/prompt') {
      prompt(message).catch((error) => send({ id: message.id, error: { code: -32603, message: String(error && error.message) } }));
    } else if (message.method === 'session/cancel') {
      process.exit(0);
    } else if (message.id !== undefined && message.method) {
      send({ id: message.id, error: { code: -32601, message: 'Method not found: ' + message.method } });
    }
  }
});
`;

/** Writes the agent as `dir/runs-fixture-agent.js` and returns its path. */
export function writeRunsFixtureAgent(dir: string): string {
  const path = join(dir, 'runs-fixture-agent.js');
  writeFileSync(path, RUNS_FIXTURE_JS, { mode: 0o755 });
  return path;
}
