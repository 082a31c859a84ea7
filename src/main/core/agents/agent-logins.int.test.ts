// An agent's terminal login, run by the desk where a person can see it and type into it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { desksPerTest, scriptedAgent, waitForEvent, type Desk } from '../test-support/desk-harness';

// A stand-in for a vendor agent: it offers a terminal login in `initialize`, and with `--login` asks for a code.
const LOGIN_AGENT = `
if (process.argv.includes('--login')) {
  process.stdout.write('Paste the code (' + process.env.LOGIN_MODE + '): ');
  process.stdin.once('data', (data) => { process.stdout.write('\\nLogged in with ' + String(data).trim() + '\\n'); process.exit(0); });
} else {
  let buffer = '';
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\\n'); end >= 0; end = buffer.indexOf('\\n')) {
      const message = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      if (message.method === 'initialize') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: 1, authMethods: [
        { id: 'browser', name: 'Log in with a browser' },
        { id: 'cli-login', name: 'Log in in a terminal', type: 'terminal', args: ['--login'], env: { LOGIN_MODE: 'device' } },
      ] } }) + '\\n');
    }
  });
}
`;

const openDesk = desksPerTest();

/** Resolves once the login's terminal has printed `text` (its output arrives as events, in order). */
function loginPrints(d: Desk, text: string): Promise<unknown> {
  let output = '';
  return waitForEvent(d, 'login:needs-login', ({ event }) => {
    if (event.type === 'terminal-output') output += event.data;
    return output.includes(text);
  });
}

describe('an agent\'s terminal login', () => {
  it('runs the agent\'s own login in a terminal the person answers, with the method\'s arguments and variables', async () => {
    const scriptDir = mkdtempSync(join(tmpdir(), 'desk-login-agent-'));
    const script = join(scriptDir, 'login-agent.cjs');
    writeFileSync(script, LOGIN_AGENT);
    onTestFinished(() => rmSync(scriptDir, { recursive: true, force: true }));
    const d = await openDesk({ agents: [scriptedAgent(), { ...scriptedAgent(), id: 'needs-login', name: 'Needs login', args: [script] }] });

    const started = await d.api('POST', '/api/agents/needs-login/login', {});
    expect(started.status, started.text).toBe(202);
    expect(started.json).toMatchObject({ agentId: 'needs-login', methodId: 'cli-login', methodName: 'Log in in a terminal', args: [script, '--login'], eventsId: 'login:needs-login' });
    await loginPrints(d, 'Paste the code (device)');
    expect((await d.api('GET', '/api/agents/needs-login/login')).json.output).toContain('Paste the code (device)');
    expect((await d.api('POST', '/api/agents/needs-login/login', {})).status).toBe(409);

    expect((await d.api('POST', '/api/agents/needs-login/login/input', { data: 'abc123\r' })).status).toBe(200);
    await waitForEvent(d, 'login:needs-login', ({ event }) => event.type === 'terminal-exited');
    const done = (await d.api('GET', '/api/agents/needs-login/login')).json;
    expect(done.output).toContain('Logged in with abc123');
    expect(done.exitStatus).toEqual({ exitCode: 0, signal: null });
  });

  it('says when an agent offers no login the desk can run, and when there is no login to show', async () => {
    const d = await openDesk({ agents: [scriptedAgent()] });
    const none = await d.api('POST', '/api/agents/scripted/login', {});
    expect(none.status).toBe(409);
    expect(none.json.message).toMatch(/offers no terminal login/);
    expect((await d.api('POST', '/api/agents/nobody/login', {})).status).toBe(404);
    expect((await d.api('GET', '/api/agents/scripted/login')).status).toBe(404);
  });
});
