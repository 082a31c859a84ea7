// Settings' agents: each agent's state in one line (details on expand), and Install, Log in and Test where they apply.
import { useEffect, useState } from 'react';
import type { AgentInfo, AgentLogin, AgentState } from '../../../shared/agents';
import { desk, useDesk } from '../state/store';

const STATE_LABELS: Record<AgentState, string> = {
  'not-installed': 'Not installed',
  installed: 'Installed',
  'needs-login': 'Needs login',
  ready: 'Ready',
};

/** Who the agent says it is: "Fixture Agent 1.2.3". */
function implementationText(agent: AgentInfo): string | undefined {
  const implementation = agent.implementation;
  return implementation && `${implementation.title ?? implementation.name} ${implementation.version}`;
}

/** The row's one line: short, the long reason goes to the details. Pure. */
export function agentSummary(agent: AgentInfo): string {
  if (agent.install?.state === 'running') return `Installing ${agent.install.source}…`;
  if (agent.install?.state === 'failed' && !agent.available) return `Install failed: ${agent.install.message ?? 'see the log'}`;
  switch (agent.state) {
    case 'not-installed':
      return agent.npmPackage ? `Not found on this machine; Install gets ${agent.npmPackage}` : 'Not found on this machine';
    case 'needs-login':
      return `Wants a login: ${agent.login?.methods.map((method) => method.name).join(', ') || 'see details'}`;
    case 'ready':
      return `${implementationText(agent) ?? agent.name} started a session`;
    case 'installed':
      return agent.test?.outcome === 'failed' ? `Test failed: ${agent.test.message}` : `${implementationText(agent) ?? 'Found'}; not tested yet`;
  }
}

function LoginPanel({ agentId, login, onClose }: { agentId: string; login: AgentLogin; onClose(): void }) {
  const [view, setView] = useState(login);
  const [input, setInput] = useState('');
  useEffect(() => {
    if (view.exitStatus !== null) return undefined;
    const timer = setInterval(() => {
      void desk().readLogin(agentId).then((next) => { if (typeof next !== 'string') setView(next); });
    }, 500);
    return () => clearInterval(timer);
  }, [agentId, view.exitStatus]);
  const send = async () => {
    const next = await desk().typeIntoLogin(agentId, `${input}\r`);
    if (typeof next !== 'string') setView(next);
    setInput('');
  };
  return (
    <div className="agent-login" aria-label={`Login of ${agentId}`}>
      <p className="agent-message">{view.methodName}: <code>{[view.command, ...view.args].join(' ')}</code>{view.exitStatus && ` — ended (${view.exitStatus.exitCode ?? view.exitStatus.signal})`}</p>
      <pre className="agent-log">{view.output || '…'}</pre>
      {view.exitStatus === null && (
        <div className="input-row">
          <input aria-label="Type into the login" value={input} onChange={(event) => setInput(event.target.value)} onKeyDown={(event) => { if (event.key === 'Enter') void send(); }} />
          <button type="button" className="small" onClick={() => void send()}>Send</button>
        </div>
      )}
      <button type="button" className="quiet small" onClick={() => { void desk().stopLogin(agentId); onClose(); }}>{view.exitStatus === null ? 'Stop login' : 'Close'}</button>
    </div>
  );
}

function AgentRow({ agent }: { agent: AgentInfo }) {
  const [busy, setBusy] = useState<'test' | 'login' | undefined>();
  const [message, setMessage] = useState<string>();
  const [login, setLogin] = useState<AgentLogin>();
  const installing = agent.install?.state === 'running';
  const terminalLogin = agent.login?.methods.find((method) => method.action.kind === 'terminal-login');

  const install = async () => setMessage(await desk().installAgent(agent.id));
  const test = async () => {
    setBusy('test');
    const result = await desk().testAgent(agent.id);
    setBusy(undefined);
    setMessage(typeof result === 'string' ? result : undefined);
  };
  const logIn = async () => {
    setBusy('login');
    const result = await desk().startLogin(agent.id, terminalLogin?.id);
    setBusy(undefined);
    if (typeof result === 'string') setMessage(result);
    else { setMessage(undefined); setLogin(result); }
  };

  return (
    <li className="agent-row" aria-label={`Agent ${agent.name}`}>
      <div className="agent-line">
        <span className="agent-name">{agent.name}</span>
        <span className={`agent-state agent-state-${agent.state}`}>{installing ? 'Installing' : STATE_LABELS[agent.state]}</span>
        <span className="agent-summary" title={agentSummary(agent)}>{agentSummary(agent)}</span>
        <span className="agent-actions">
          {!agent.available && agent.npmPackage && <button type="button" className="small" disabled={installing} onClick={() => void install()}>Install</button>}
          {agent.available && agent.id !== 'scripted' && <button type="button" className="small quiet" disabled={busy === 'login'} onClick={() => void logIn()}>Log in</button>}
          {agent.available && <button type="button" className="small quiet" disabled={busy === 'test'} onClick={() => void test()}>{busy === 'test' ? 'Testing…' : 'Test'}</button>}
        </span>
      </div>
      {agent.install && (installing || agent.install.state === 'failed') && (
        <progress className="agent-progress" aria-label={`Installing ${agent.name}`} max={1} value={agent.install.progress} />
      )}
      {message && <p role="alert" className="agent-message agent-message-failed">{message}</p>}
      {login && <LoginPanel agentId={agent.id} login={login} onClose={() => setLogin(undefined)} />}
      <details className="agent-details" open={installing || undefined}>
        <summary>Details</summary>
        <dl className="facts">
          <dt>Command</dt><dd><code>{[agent.command, ...agent.args].join(' ')}</code></dd>
          {agent.resolvedPath && <><dt>Runs</dt><dd><code>{agent.resolvedPath}</code></dd></>}
          {agent.reason && <><dt>Why not</dt><dd>{agent.reason}</dd></>}
          {implementationText(agent) && <><dt>Agent says</dt><dd>{implementationText(agent)} ({agent.implementation?.name})</dd></>}
          {agent.test && <><dt>Last test</dt><dd>{agent.test.message} ({agent.test.durationMs} ms)</dd></>}
          {agent.envAllowlist.length > 0 && <><dt>Receives</dt><dd>{agent.envAllowlist.join(', ')}</dd></>}
        </dl>
        {agent.login && (
          <ul className="agent-login-methods">
            {agent.login.methods.map((method) => <li key={method.id}><strong>{method.name}</strong>: {method.hint}</li>)}
          </ul>
        )}
        {agent.install && <pre className="agent-log" aria-label={`Install log of ${agent.name}`}>{agent.install.log}</pre>}
      </details>
    </li>
  );
}

export function AgentsSection() {
  const agents = useDesk((state) => state.agents);
  const installing = agents?.agents.some((agent) => agent.install?.state === 'running') ?? false;
  // npm says nothing over the socket the board listens to for tasks; while an install runs, its row is read again.
  useEffect(() => {
    if (!installing) return undefined;
    const timer = setInterval(() => void desk().loadAgents(), 400);
    return () => clearInterval(timer);
  }, [installing]);
  if (!agents) return null;
  return (
    <fieldset className="settings-group">
      <legend>Agents</legend>
      <ul className="agent-list">
        {agents.agents.map((agent) => <AgentRow key={agent.id} agent={agent} />)}
      </ul>
    </fieldset>
  );
}
