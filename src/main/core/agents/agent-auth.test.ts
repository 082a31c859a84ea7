import { describe, expect, it } from 'vitest';
import { JsonRpcError } from '../../../shared/json-rpc-peer';
import { isAuthRequired, loginHelp, offeredMethods, type LoginSubject } from './agent-auth';

const gemini: LoginSubject = { id: 'gemini', name: 'Gemini CLI', envAllowlist: ['GEMINI_API_KEY'], source: 'builtin' };
const adHoc: LoginSubject = { id: 'ad-hoc', name: 'Claude Agent (ad hoc)', envAllowlist: [], source: 'ad-hoc' };

describe('isAuthRequired', () => {
  it("knows ACP's auth_required code and the words agents use instead", () => {
    expect(isAuthRequired(new JsonRpcError(-32000, 'Authentication required'))).toBe(true);
    expect(isAuthRequired({ code: -32603, message: 'Internal error: Please log in first' })).toBe(true);
    expect(isAuthRequired(new Error('401 Unauthorized'))).toBe(true);
    expect(isAuthRequired(new JsonRpcError(-32603, 'rate limited'))).toBe(false);
    expect(isAuthRequired('auth required')).toBe(false);
  });
});

describe('offeredMethods', () => {
  it('keeps the fields it can read and drops broken entries', () => {
    expect(offeredMethods([{ id: 'a', name: '', type: 'terminal', args: ['--login'] }, { name: 'no id' }, 7, { id: 'b', type: 'env_var', vars: [{ name: 'X_KEY' }, 'Y_TOKEN'] }])).toEqual([
      { id: 'a', name: 'a', type: 'terminal' },
      { id: 'b', name: 'b', type: 'env_var', vars: ['X_KEY', 'Y_TOKEN'] },
    ]);
    expect(offeredMethods('nope')).toEqual([]);
  });
});

describe('loginHelp', () => {
  it('offers a terminal login from the desk with the real agent id in the route', () => {
    const help = loginHelp(adHoc, [{ id: 'claude-login', name: 'Log in with Claude', type: 'terminal' }], 'Authentication required');
    expect(help.methods[0]?.action).toEqual({ kind: 'terminal-login', agentId: 'ad-hoc', methodId: 'claude-login', route: 'POST /api/agents/ad-hoc/login' });
    expect(help.message).toContain('POST /api/agents/ad-hoc/login {"methodId": "claude-login"}');
    expect(help.message).not.toContain('<id>');
  });

  it('says which variable to set when the method names one, and that authMethod goes in agents.json', () => {
    const help = loginHelp(gemini, [{ id: 'gemini-api-key', name: 'Use Gemini API key', description: 'Requires setting the `GEMINI_API_KEY` environment variable' }], '');
    expect(help.methods[0]?.action).toEqual({ kind: 'env', variables: ['GEMINI_API_KEY'], authMethod: 'gemini-api-key' });
    expect(help.methods[0]?.hint).toBe('set GEMINI_API_KEY in the environment the desk starts in, then set "authMethod": "gemini-api-key" for agent "gemini" in agents.json and restart the desk');
  });

  it('asks to allow a variable the agent would not receive', () => {
    const help = loginHelp(adHoc, [{ id: 'key', name: 'API key', type: 'env_var', vars: ['ANTHROPIC_API_KEY'] }], '');
    expect(help.methods[0]?.hint).toContain("add ANTHROPIC_API_KEY to the agent's envAllowlist");
  });

  it('never tells an --agent-command agent to set its authMethod, which it cannot', () => {
    const help = loginHelp(adHoc, [{ id: 'oauth', name: 'Log in with Google' }], '');
    expect(help.methods[0]?.action).toEqual({ kind: 'authenticate', methodId: 'oauth' });
    expect(help.methods[0]?.hint).toContain('give the agent an entry in agents.json with "authMethod": "oauth"');
  });

  it('still says what to do when the agent names no method', () => {
    expect(loginHelp(gemini, [], 'Authentication required').message).toMatch(/^Gemini CLI needs a login before it can work \(it said: Authentication required\)\. It names no login method/);
  });
});
