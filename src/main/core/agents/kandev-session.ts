// The Kandev dialect after `initialize`: a prompt is accepted at once and its turn ends with a `complete` or `error` update.
import { serveAcpClientMethods, isObject } from './acp-client-methods';
import { AgentProtocolError, type AgentSession, type SessionCallbacks, type TurnEnd } from './agent-session';
import { JsonRpcError, type JsonRpcPeer } from './json-rpc-peer';
import { mapKandevUpdate } from './kandev-update-mapper';

export interface KandevSessionOptions {
  cwd: string;
  init: Record<string, unknown>;
  continueSessionId?: string;
}

interface OpenTurn { resolve(end: TurnEnd): void; reject(error: Error): void; cancelled: boolean }

export async function startKandevSession(peer: JsonRpcPeer, options: KandevSessionOptions, callbacks: SessionCallbacks): Promise<AgentSession & { continued: boolean }> {
  // Kandev agents may still ask for permission or files the ACP way: serve those methods too.
  serveAcpClientMethods(peer, callbacks, () => false);
  const seenToolCalls = new Set<string>();
  let turn: OpenTurn | undefined;

  peer.onNotification((method, params) => {
    if (method !== 'session/update' || !isObject(params)) return;
    const data = isObject(params.data) ? params.data : {};
    if (params.type === 'complete') {
      const open = turn;
      turn = undefined;
      if (data.success === false && !(data.cancelled === true || open?.cancelled)) {
        open?.reject(new JsonRpcError(-32603, typeof data.summary === 'string' ? data.summary : 'The agent reported that it did not succeed.'));
      } else open?.resolve({ stopReason: data.cancelled === true || open?.cancelled ? 'cancelled' : 'end_turn' });
    } else if (params.type === 'error') {
      const open = turn;
      turn = undefined;
      const message = typeof data.message === 'string' ? data.message : 'The agent reported an error.';
      open?.reject(new JsonRpcError(-32603, typeof data.details === 'string' ? `${message}: ${data.details}` : message));
    } else {
      const update = mapKandevUpdate(params, seenToolCalls);
      if (update) callbacks.onUpdate(update);
    }
  });

  const capabilities = isObject(options.init.capabilities) ? options.init.capabilities : {};
  const canResume = capabilities.sessionResumption === true;
  let sessionId: string | undefined;
  let continued = false;
  if (options.continueSessionId && canResume) {
    await peer.request('session/load', { sessionId: options.continueSessionId });
    sessionId = options.continueSessionId;
    continued = true;
  } else {
    // Kandev's session/new takes no parameters; the cwd is an extra some agents use.
    const created = await peer.request('session/new', { cwd: options.cwd });
    sessionId = isObject(created) && typeof created.sessionId === 'string' ? created.sessionId : undefined;
  }
  if (!sessionId) throw new AgentProtocolError('The agent did not return a session id for session/new.');
  const id = sessionId;

  return {
    sessionId: id,
    dialect: 'kandev',
    continued,
    features: { canContinue: canResume },
    async prompt(text) {
      if (turn) throw new AgentProtocolError('A turn is already running.');
      const ended = new Promise<TurnEnd>((resolve, reject) => { turn = { resolve, reject, cancelled: false }; });
      try {
        const accepted = await peer.request('session/prompt', { sessionId: id, message: text });
        if (isObject(accepted) && accepted.accepted === false) throw new AgentProtocolError('The agent did not accept the prompt.');
      } catch (error) {
        turn = undefined;
        throw error;
      }
      // The peer closing (agent exit) must end the wait too.
      return Promise.race([ended, peer.closed.then((error) => { throw error; })]);
    },
    cancel() {
      if (turn) turn.cancelled = true;
      peer.notify('session/cancel', { sessionId: id, reason: 'Cancelled in Assignment Desk' });
    },
    async setMode() {
      throw new AgentProtocolError('Kandev agents have no session modes.');
    },
    async setConfigOption() {
      throw new AgentProtocolError('Kandev agents have no session configuration options.');
    },
  };
}
