// The scripted agent in the standard dialect: an ACP v1 agent that runs each prompt as a script. It speaks ACP
// through our own small connection (acp-agent-connection.ts): loading the SDK's runtime would double its start.
import type { ClientCapabilities, InitializeResponse, PromptResponse } from '@agentclientprotocol/sdk';
import type { Usage } from '@agentclientprotocol/sdk/unstable';
import { INVALID_REQUEST, JsonRpcError } from '../shared/json-rpc-peer';
import { ndjsonChannel } from '../shared/ndjson-channel';
import { connectAcpAgent, type IncomingRequest } from './acp-agent-connection';
import { readCancel, readInitialize, readNewSession, readPrompt } from './acp-agent-params';
import { createAcpSink } from './acp-sink';
import { parseScript } from './script';
import { runScript } from './script-runner';
import { createSessionTable } from './scripted-sessions';
import { mcpCaller } from './mcp-calls';
import { channelTransport, type MessageTransport } from './stdio-transport';

export type AcpScriptedAgentOptions = {
  /** Ends the process at once, for the `crash` command. */
  exit: (code: number) => never;
} & (
  /** Newline-delimited JSON-RPC from and to the client, as web byte streams (in-memory pipes)... */
  | { input: ReadableStream<Uint8Array>; output: WritableStream<Uint8Array> }
  /** ...or as a transport of messages (the process's stdio, without web streams). */
  | { transport: MessageTransport }
);

export interface RunningAgent {
  /** Resolves when the client has gone (its stream closed). */
  readonly closed: Promise<void>;
}

export const SCRIPTED_AGENT_INFO = { name: 'scripted-agent', title: 'Scripted agent', version: '0.1.0' } as const;

const INTERNAL_ERROR = -32603;
const RESOURCE_NOT_FOUND = -32002;

export function startAcpScriptedAgent(options: AcpScriptedAgentOptions): RunningAgent {
  const sessions = createSessionTable();
  // Set by initialize; the connection's gate refuses other requests until then.
  let capabilities: ClientCapabilities = {};

  const initialize = ({ params }: IncomingRequest): InitializeResponse => {
    capabilities = readInitialize(params).clientCapabilities;
    return {
      protocolVersion: 1,
      // It calls HTTP MCP servers (the `mcp` script commands).
      agentCapabilities: { loadSession: false, mcpCapabilities: { http: true } },
      agentInfo: { ...SCRIPTED_AGENT_INFO },
      authMethods: [],
    };
  };

  const newSession = ({ params }: IncomingRequest): { sessionId: string } => {
    const { cwd, mcpServers } = readNewSession(params);
    return { sessionId: sessions.create(cwd, mcpServers).id };
  };

  const prompt = async ({ params, signal }: IncomingRequest): Promise<PromptResponse> => {
    const request = readPrompt(params);
    const session = sessions.get(request.sessionId);
    if (!session) throw new JsonRpcError(RESOURCE_NOT_FOUND, 'Resource not found', { sessionId: request.sessionId });
    const turn = sessions.beginTurn(session);
    if (!turn) throw new JsonRpcError(INVALID_REQUEST, 'Invalid request: a prompt is already running in this session');
    // `$/cancel_request` for this prompt, or the connection closing, cancels the turn like session/cancel.
    const onRequestAborted = (): void => turn.abort();
    signal.addEventListener('abort', onRequestAborted, { once: true });
    try {
      const sink = createAcpSink({ client: connection.client, sessionId: session.id, cwd: session.cwd, capabilities, signal: turn.signal });
      const commands = parseScript(request.text);
      const mcp = mcpCaller(session.mcpServers);
      const result = await runScript(commands, { cwd: session.cwd, sink, signal: turn.signal, exit: options.exit, ...(mcp && { mcp }) });
      if (result.stop === 'failed') throw new JsonRpcError(INTERNAL_ERROR, result.message);
      if (result.stop !== 'end_turn' || !result.tokens) return { stopReason: result.stop };
      const { input, output } = result.tokens;
      // ACP's unstable `usage` of a prompt answer (not in the stable PromptResponse type): the tokens this turn took.
      const answer: PromptResponse & { usage: Usage } = { stopReason: result.stop, usage: { inputTokens: input, outputTokens: output, totalTokens: input + output } };
      return answer;
    } finally {
      signal.removeEventListener('abort', onRequestAborted);
      sessions.endTurn(session, turn);
    }
  };

  const cancel = (params: unknown): void => {
    const sessionId = readCancel(params);
    const session = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (session) sessions.cancel(session);
  };

  const transport = 'transport' in options ? options.transport : channelTransport(ndjsonChannel(options.output, options.input));
  const connection = connectAcpAgent(transport, {
    requests: new Map<string, (request: IncomingRequest) => unknown>([['initialize', initialize], ['session/new', newSession], ['session/prompt', prompt]]),
    notifications: new Map<string, (params: unknown) => void>([['session/cancel', cancel]]),
  });
  void connection.closed.then(() => sessions.cancelAll());
  return { closed: connection.closed };
}
