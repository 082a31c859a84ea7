// The Kandev dialect after `initialize`, on our JSON-RPC peer: a prompt is accepted at once and its turn ends
// with a `complete` or `error` update.
import type { z } from 'zod';
import { createJsonRpcPeer, INTERNAL_ERROR, INVALID_PARAMS, JsonRpcError } from '../../../shared/json-rpc-peer';
import type { MessageChannel } from '../../../shared/ndjson-channel';
import { agentProtocolError, type AgentSession, type SessionCallbacks, type TurnEnd } from './agent-session';
import {
  KandevComplete, KandevElicitationRequest, KandevError, KandevPermissionRequest, KandevPromptAccepted, KandevReadTextFile,
  KandevSessionCreated, KandevUpdate, KandevWriteTextFile, type KandevInitializeResult,
} from './kandev-messages';
import { mapKandevUpdate } from './kandev-update-mapper';
import { fileError, protocolError } from './acp-errors';
import { withinHandshake } from './handshake-deadline';

export interface KandevSessionOptions {
  cwd: string;
  init: KandevInitializeResult;
  continueSessionId?: string;
  /** How long session/new (or session/load) may wait for the agent's answer. */
  handshakeTimeoutMs: number;
}

interface OpenTurn { resolve(end: TurnEnd): void; reject(error: Error): void; cancelled: boolean }

/** Params the agent sent, parsed; a mismatch answers -32602 with zod's first complaint. */
function parse<T extends z.ZodType>(schema: T, params: unknown): z.infer<T> {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new JsonRpcError(INVALID_PARAMS, `Invalid params: ${parsed.error.issues[0]?.message ?? 'unexpected shape'}`);
  return parsed.data;
}

export async function startKandevSession(channel: MessageChannel, options: KandevSessionOptions, callbacks: SessionCallbacks): Promise<AgentSession & { continued: boolean }> {
  const peer = createJsonRpcPeer(channel);
  const { handlers } = callbacks;
  // Kandev agents may still ask for permission, answers or files the ACP way (a documented extension).
  // Each failure answers with the code ACP defines for its cause (acp-errors.ts), as the standard dialect does.
  const serve = (method: string, handler: (params: unknown) => Promise<unknown>): void => {
    peer.handle(method, (params) => handler(params).catch((error: unknown) => { throw protocolError(error); }));
  };
  serve('session/request_permission', async (params) => {
    const { toolCall, options: choices } = parse(KandevPermissionRequest, params);
    return {
      outcome: await handlers.requestPermission({
        toolCall: {
          ...(toolCall.toolCallId !== undefined && { toolCallId: toolCall.toolCallId }),
          ...(typeof toolCall.title === 'string' && { title: toolCall.title }),
          ...(typeof toolCall.kind === 'string' && { kind: toolCall.kind }),
          ...(toolCall.locations && { locations: toolCall.locations.map(({ path }) => ({ path })) }),
          ...(toolCall.rawInput !== undefined && { rawInput: toolCall.rawInput }),
        },
        options: choices.map(({ optionId, name, kind }) => ({ optionId, name, kind })),
      }),
    };
  });
  serve('elicitation/create', async (params) => {
    const { message, mode, requestedSchema, url } = parse(KandevElicitationRequest, params);
    return handlers.elicit({ message, mode, ...(requestedSchema !== undefined && { requestedSchema }), ...(url !== undefined && { url }) });
  });
  serve('fs/read_text_file', async (params) => {
    const { path, line, limit } = parse(KandevReadTextFile, params);
    const read = handlers.readTextFile({ path, ...(line && { line }), ...(limit && { limit }) });
    return { content: await read.catch((error: unknown) => { throw fileError(error, path, 'read'); }) };
  });
  serve('fs/write_text_file', async (params) => {
    const { path, content } = parse(KandevWriteTextFile, params);
    await handlers.writeTextFile({ path, content }).catch((error: unknown) => { throw fileError(error, path, 'write'); });
    return {};
  });

  const seenToolCalls = new Set<string>();
  let turn: OpenTurn | undefined;
  peer.onNotification((method, params) => {
    const parsed = KandevUpdate.safeParse(params);
    if (method !== 'session/update' || !parsed.success) return;
    const update = parsed.data;
    if (update.type === 'complete') {
      const open = turn;
      turn = undefined;
      const data = KandevComplete.safeParse(update.data).data ?? {};
      const cancelled = data.cancelled === true || open?.cancelled === true;
      if (data.success === false && !cancelled) open?.reject(new JsonRpcError(INTERNAL_ERROR, data.summary ?? 'The agent reported that it did not succeed.'));
      else open?.resolve({ stopReason: cancelled ? 'cancelled' : 'end_turn' });
    } else if (update.type === 'error') {
      const open = turn;
      turn = undefined;
      const data = KandevError.safeParse(update.data).data ?? {};
      const message = data.message ?? 'The agent reported an error.';
      open?.reject(new JsonRpcError(INTERNAL_ERROR, data.details !== undefined ? `${message}: ${data.details}` : message));
    } else {
      const mapped = mapKandevUpdate(update, seenToolCalls);
      if (mapped) callbacks.onUpdate(mapped);
    }
  });

  const canResume = options.init.capabilities?.sessionResumption === true;
  let sessionId: string | undefined;
  let continued = false;
  if (options.continueSessionId && canResume) {
    const earlier = options.continueSessionId;
    await withinHandshake('session/load', options.handshakeTimeoutMs, channel, () => peer.request('session/load', { sessionId: earlier }));
    sessionId = options.continueSessionId;
    continued = true;
  } else {
    // Kandev's session/new takes no parameters; the cwd is an extra some agents use.
    const created = await withinHandshake('session/new', options.handshakeTimeoutMs, channel, () => peer.request('session/new', { cwd: options.cwd }));
    sessionId = KandevSessionCreated.safeParse(created).data?.sessionId;
  }
  if (!sessionId) throw agentProtocolError('The agent did not return a session id for session/new.');
  const id = sessionId;

  return {
    sessionId: id,
    dialect: 'kandev',
    continued,
    features: { canContinue: canResume },
    async prompt(text) {
      if (turn) throw agentProtocolError('A turn is already running.');
      const ended = new Promise<TurnEnd>((resolve, reject) => { turn = { resolve, reject, cancelled: false }; });
      try {
        const accepted = KandevPromptAccepted.safeParse(await peer.request('session/prompt', { sessionId: id, message: text }));
        if (accepted.data?.accepted === false) throw agentProtocolError('The agent did not accept the prompt.');
      } catch (error) {
        turn = undefined;
        throw error;
      }
      // The channel closing (agent exit) must end the wait too.
      return Promise.race([ended, peer.closed.then((error) => { throw error; })]);
    },
    cancel() {
      if (turn) turn.cancelled = true;
      void peer.notify('session/cancel', { sessionId: id, reason: 'Cancelled in Assignment Desk' });
    },
    async setMode() {
      throw agentProtocolError('Kandev agents have no session modes.');
    },
    async setConfigOption() {
      throw agentProtocolError('Kandev agents have no session configuration options.');
    },
  };
}
