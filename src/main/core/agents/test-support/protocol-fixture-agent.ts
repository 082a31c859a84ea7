// An ACP agent for tests of the desk's side of the protocol, as the source of a Node program (CommonJS, no
// dependencies) written to a temp dir. `--mode` picks what it does: `create-file` (reads a file that is not there,
// then writes it, as Gemini CLI's write_file does), `claude-tools` (claude-code-acp's order: a tool call's kind,
// paths and input in updates, then a permission request naming only its id), `silent-init` / `silent-session`
// (never answers initialize / session/new).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PROTOCOL_FIXTURE_JS = `#!/usr/bin/env node
const mode = (process.argv.find((a) => a.startsWith('--mode=')) || '--mode=create-file').slice(7);
let nextId = 1;
const waiting = new Map();
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
const call = (method, params) => new Promise((resolve) => { const id = nextId++; waiting.set(id, resolve); send({ id, method, params }); });
const update = (sessionId, update) => send({ method: 'session/update', params: { sessionId, update } });
const say = (sessionId, text) => update(sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const describe = (answer) => answer.error ? 'error ' + answer.error.code + ': ' + answer.error.message : 'ok';
let cwd = '/';

async function createFile(sessionId) {
  const path = cwd + '/created.txt';
  const read = await call('fs/read_text_file', { sessionId, path });
  say(sessionId, 'read answered ' + describe(read) + '\\n');
  if (read.error && read.error.code === -32002) {
    const written = await call('fs/write_text_file', { sessionId, path, content: 'made after a not-found answer\\n' });
    say(sessionId, 'write answered ' + describe(written) + '\\n');
  }
}

async function claudeTools(sessionId) {
  const options = [
    { kind: 'allow_always', name: 'Always Allow', optionId: 'allow_always' },
    { kind: 'allow_once', name: 'Allow', optionId: 'allow' },
    { kind: 'reject_once', name: 'Reject', optionId: 'reject' },
  ];
  const path = cwd + '/hello.txt';
  update(sessionId, { sessionUpdate: 'tool_call', toolCallId: 'toolu_write', title: 'Write', kind: 'edit', status: 'pending', rawInput: {} });
  update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_write', title: 'Write ' + path, kind: 'edit', locations: [{ path }], rawInput: { file_path: path, content: 'hello\\n' } });
  const write = await call('session/request_permission', { sessionId, options, toolCall: { toolCallId: 'toolu_write', title: 'Write ' + path, rawInput: { file_path: path, content: 'hello\\n' } } });
  const writeAnswer = write.result ? (write.result.outcome.optionId || write.result.outcome.outcome) : describe(write);
  say(sessionId, 'write permission: ' + writeAnswer + '\\n');
  if (writeAnswer.startsWith('allow')) await call('fs/write_text_file', { sessionId, path, content: 'hello\\n' });
  update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_write', status: 'completed' });

  const command = 'git status --short';
  update(sessionId, { sessionUpdate: 'tool_call', toolCallId: 'toolu_bash', title: 'Terminal', kind: 'execute', status: 'pending', rawInput: { command } });
  const run = await call('session/request_permission', { sessionId, options, toolCall: { toolCallId: 'toolu_bash', title: command, rawInput: { command } } });
  const runAnswer = run.result ? (run.result.outcome.optionId || run.result.outcome.outcome) : describe(run);
  say(sessionId, 'command permission: ' + runAnswer + '\\n');
  update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_bash', status: 'completed' });
}

let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let end = buffer.indexOf('\\n'); end >= 0; end = buffer.indexOf('\\n')) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.method === undefined) {
      const resolve = waiting.get(message.id);
      waiting.delete(message.id);
      if (resolve) resolve(message);
    } else if (message.method === 'initialize') {
      if (mode !== 'silent-init') send({ id: message.id, result: { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name: 'protocol-fixture', version: '0.0.1' } } });
    } else if (message.method === 'session/new') {
      cwd = message.params.cwd;
      if (mode !== 'silent-session') send({ id: message.id, result: { sessionId: 'fixture-session' } });
    } else if (message.method === 'session/prompt') {
      const { sessionId } = message.params;
      const work = mode === 'claude-tools' ? claudeTools(sessionId) : createFile(sessionId);
      work.then(() => send({ id: message.id, result: { stopReason: 'end_turn' } }));
    } else if (message.id !== undefined) {
      send({ id: message.id, error: { code: -32601, message: 'Method not found: ' + message.method } });
    }
  }
});
`;

/** Writes the agent as `dir/protocol-fixture.js` and returns its path. */
export function writeProtocolFixture(dir: string): string {
  const path = join(dir, 'protocol-fixture.js');
  writeFileSync(path, PROTOCOL_FIXTURE_JS, { mode: 0o755 });
  return path;
}
