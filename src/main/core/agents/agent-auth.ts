// An agent that wants a login: recognising it (ACP's auth_required, whenever it comes) and saying, for each login
// method the agent offers, the one action that works for this agent. Pure.
import type { LoginAction, LoginHelp, LoginMethodHelp } from '../../../shared/agents';
import { isObject } from '../../../shared/is-object';

/** ACP's error code for "authenticate first" (`auth_required`). */
export const AUTH_REQUIRED = -32000;

/** Words agents use for it when they answer with another code or a plain failure. */
const AUTH_WORDS = /\b(auth(entication)?[ _-]required|not (authenticated|logged in)|please (log ?in|login|sign in|authenticate)|login required|unauthori[sz]ed)\b/i;

/** Whether an error (a JSON-RPC error with `code`, or any Error) says the agent needs a login. */
export function isAuthRequired(error: unknown): boolean {
  if (!isObject(error)) return false;
  if (error.code === AUTH_REQUIRED) return true;
  return typeof error.message === 'string' && AUTH_WORDS.test(error.message);
}

/** An auth method as the agent sent it (ACP `authMethods[]`): only the fields read here, each checked. */
export interface OfferedMethod {
  id: string;
  name: string;
  description?: string;
  /** `terminal`, `env_var` (a draft of ACP), or absent/`agent`: the agent handles it in `authenticate`. */
  type?: string;
  /** For `env_var`: the variables it reads. */
  vars?: string[];
}

/** Reads `authMethods` from an initialize answer without trusting its shape. */
export function offeredMethods(raw: unknown): OfferedMethod[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).filter((m) => typeof m.id === 'string' && m.id !== '').map((m) => ({
    id: m.id as string,
    name: typeof m.name === 'string' && m.name !== '' ? m.name : (m.id as string),
    ...(typeof m.description === 'string' && m.description !== '' && { description: m.description }),
    ...(typeof m.type === 'string' && { type: m.type }),
    ...(Array.isArray(m.vars) && {
      vars: m.vars.map((v) => (typeof v === 'string' ? v : isObject(v) && typeof v.name === 'string' ? v.name : undefined)).filter((v): v is string => v !== undefined),
    }),
  }));
}

export interface LoginSubject {
  id: string;
  name: string;
  envAllowlist: readonly string[];
  /** `ad-hoc` agents (`--agent-command`) have no agents.json entry to set `authMethod` in. */
  source: 'builtin' | 'config' | 'ad-hoc';
}

/** Variable names a description mentions (`GEMINI_API_KEY`), and the agent's own allowlist entries it names. */
function variablesIn(text: string, allowlist: readonly string[]): string[] {
  const named = text.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? [];
  return [...new Set(named.filter((name) => /(KEY|TOKEN|SECRET|AUTH|CREDENTIALS)/.test(name) || allowlist.includes(name)))];
}

function actionFor(agent: LoginSubject, method: OfferedMethod): LoginAction {
  if (method.type === 'terminal') {
    return { kind: 'terminal-login', agentId: agent.id, methodId: method.id, route: `POST /api/agents/${encodeURIComponent(agent.id)}/login` };
  }
  const variables = method.type === 'env_var' && method.vars && method.vars.length > 0
    ? method.vars
    : variablesIn(`${method.name} ${method.description ?? ''}`, agent.envAllowlist);
  if (variables.length > 0) return { kind: 'env', variables, ...(method.type !== 'env_var' && { authMethod: method.id }) };
  return { kind: 'authenticate', methodId: method.id };
}

function setAuthMethod(agent: LoginSubject, methodId: string): string {
  return agent.source === 'ad-hoc'
    ? `give the agent an entry in agents.json with "authMethod": "${methodId}" (an --agent-command agent has no entry to set it in)`
    : `set "authMethod": "${methodId}" for agent "${agent.id}" in agents.json and restart the desk`;
}

function hintFor(agent: LoginSubject, action: LoginAction): string {
  switch (action.kind) {
    case 'terminal-login':
      return `log in from the desk: Log in on the agent in Settings, or ${action.route} {"methodId": "${action.methodId}"}`;
    case 'env': {
      const missing = action.variables.filter((name) => !agent.envAllowlist.includes(name));
      const vars = action.variables.join(' or ');
      const pass = missing.length > 0 ? ` and add ${missing.join(', ')} to the agent's envAllowlist in agents.json` : '';
      return `set ${vars} in the environment the desk starts in${pass}${action.authMethod ? `, then ${setAuthMethod(agent, action.authMethod)}` : ''}`;
    }
    case 'authenticate':
      return setAuthMethod(agent, action.methodId);
  }
}

/** For each method the agent offers, the action that works and a sentence saying it; and the whole as one message. */
export function loginHelp(agent: LoginSubject, methods: readonly OfferedMethod[], agentMessage: string): LoginHelp {
  const described: LoginMethodHelp[] = methods.map((method) => {
    const action = actionFor(agent, method);
    return { id: method.id, name: method.name, ...(method.description && { description: method.description }), action, hint: hintFor(agent, action) };
  });
  const said = agentMessage.trim() === '' ? '' : ` (it said: ${agentMessage.trim()})`;
  const message = described.length > 0
    ? `${agent.name} needs a login before it can work${said}. Ways to log in: ${described.map((m) => `"${m.name}" — ${m.hint}`).join('; ')}.`
    : `${agent.name} needs a login before it can work${said}. It names no login method: log in with the agent's own command outside the desk, or pass its API key through the agent's envAllowlist.`;
  return { agentId: agent.id, agentName: agent.name, agentMessage, methods: described, message };
}
