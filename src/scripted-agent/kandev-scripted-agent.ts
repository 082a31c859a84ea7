// The scripted agent in the Kandev dialect: JSON-RPC 2.0 over ndjson, where a prompt is accepted at once
// and its progress follows as `session/update` notifications ending in `complete` or `error`.
import { isAbsolute } from 'node:path';
import { createJsonRpcPeer, INVALID_PARAMS, INVALID_REQUEST, JsonRpcError, type JsonRpcPeer } from '../shared/json-rpc-peer';
import { ndjsonChannel } from '../shared/ndjson-channel';
import { fieldOf } from './json-field';
import { createKandevSink, sendKandevUpdate } from './kandev-sink';
import { parseScript } from './script';
import { runScript, type TurnResult } from './script-runner';
import { reasonOf } from './turn-cancellation';
import { createSessionTable, type ScriptedSession, type SessionTable } from './scripted-sessions';

export interface KandevScriptedAgentOptions {
  /** Bytes from the client (newline-delimited JSON-RPC). */
  input: ReadableStream<Uint8Array>;
  /** Bytes to the client. */
  output: WritableStream<Uint8Array>;
  /** The cwd of sessions created without one (Kandev's session/new carries no cwd). */
  defaultCwd: string;
  exit: (code: number) => never;
  log: (line: string) => void;
}

const SERVER_INFO = { name: 'scripted-agent', version: '0.1.0' };

export function startKandevScriptedAgent(options: KandevScriptedAgentOptions): { closed: Promise<void> } {
  const sessions = createSessionTable();
  const runningTurns = new Set<Promise<void>>();
  // No noise handler: a line that is not JSON is answered with a parse error, as Kandev's clients expect.
  const rpc: JsonRpcPeer = createJsonRpcPeer(ndjsonChannel(options.output, options.input));
  rpc.handle('initialize', () => ({ protocolVersion: '1.0', serverInfo: SERVER_INFO, capabilities: { streaming: true, sessionResumption: false } }));
  rpc.handle('session/new', (params) => ({ sessionId: sessions.create(cwdFrom(params) ?? options.defaultCwd).id }));
  rpc.handle('session/prompt', (params) => acceptPrompt(params));
  rpc.onNotification((method, params) => {
    if (method !== 'session/cancel') return;
    // Kandev's cancel names no session; one that does cancels only that session's turn.
    const sessionId = fieldOf(params, 'sessionId');
    if (typeof sessionId !== 'string') {
      sessions.cancelAll();
      return;
    }
    const session = sessions.get(sessionId);
    if (session) sessions.cancel(session);
  });

  function acceptPrompt(params: unknown): { accepted: true } {
    const message = fieldOf(params, 'message');
    if (typeof message !== 'string') throw new JsonRpcError(INVALID_PARAMS, 'session/prompt needs a string "message"');
    const session = promptSession(params, sessions);
    if (!session) throw new JsonRpcError(INVALID_PARAMS, 'No session: call session/new first');
    const turn = sessions.beginTurn(session);
    if (!turn) throw new JsonRpcError(INVALID_REQUEST, `A prompt is already running in session ${session.id}`);
    // The answer `{accepted: true}` is written when this handler returns; starting the turn on the next
    // macrotask guarantees no update of the turn goes out before it.
    setImmediate(() => {
      const running = runTurn(session, message, turn)
        .catch((error: unknown) => options.log(`scripted-agent: cannot report the end of a turn: ${reasonOf(error)}`))
        .finally(() => runningTurns.delete(running));
      runningTurns.add(running);
    });
    return { accepted: true };
  }

  async function runTurn(session: ScriptedSession, message: string, turn: AbortController): Promise<void> {
    const commands = parseScript(message);
    let result: TurnResult;
    try {
      const sink = createKandevSink(rpc, session.id, session.cwd);
      result = await runScript(commands, { cwd: session.cwd, sink, signal: turn.signal, exit: options.exit });
    } catch (error) {
      result = { stop: 'failed', message: `The scripted agent broke down: ${reasonOf(error)}` };
    } finally {
      // Free the session before the last update, so a client may prompt again as soon as it reads it.
      sessions.endTurn(session, turn);
    }
    // Every turn ends with exactly one `complete` or `error` update.
    if (result.stop === 'failed') {
      await sendKandevUpdate(rpc, session.id, 'error', { message: result.message });
    } else if (result.stop === 'cancelled') {
      await sendKandevUpdate(rpc, session.id, 'complete', { sessionId: session.id, success: false, cancelled: true });
    } else {
      const summary = `Ran ${commands.length} script ${commands.length === 1 ? 'line' : 'lines'}`;
      await sendKandevUpdate(rpc, session.id, 'complete', { sessionId: session.id, success: true, summary });
    }
  }

  // Turns still running when the input ends are finished, not cancelled: Kandev's own examples pipe a whole
  // conversation in and close stdin right away.
  const closed = rpc.closed.then(async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.allSettled([...runningTurns]);
  });
  return { closed };
}

/** The session a prompt names, or the latest one when it names none. */
function promptSession(params: unknown, sessions: SessionTable): ScriptedSession | undefined {
  const sessionId = fieldOf(params, 'sessionId');
  if (typeof sessionId !== 'string') return sessions.latest();
  const session = sessions.get(sessionId);
  if (!session) throw new JsonRpcError(INVALID_PARAMS, `Unknown session ${sessionId}`);
  return session;
}

function cwdFrom(params: unknown): string | undefined {
  const cwd = fieldOf(params, 'cwd');
  return typeof cwd === 'string' && isAbsolute(cwd) ? cwd : undefined;
}

