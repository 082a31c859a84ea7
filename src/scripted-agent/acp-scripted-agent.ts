// The scripted agent in the standard dialect: an ACP v1 agent (SDK app API) that runs each prompt as a script.
import {
  RequestError,
  agent,
  methods,
  ndJsonStream,
  type ClientCapabilities,
  type ContentBlock,
  type InitializeResponse,
  type PromptResponse,
} from '@agentclientprotocol/sdk';
import type { Usage } from '@agentclientprotocol/sdk/unstable';
import { createAcpSink } from './acp-sink';
import { parseScript } from './script';
import { runScript } from './script-runner';
import { createSessionTable } from './scripted-sessions';
import { mcpCaller } from './mcp-calls';

export interface AcpScriptedAgentOptions {
  /** Bytes from the client (newline-delimited JSON-RPC). */
  input: ReadableStream<Uint8Array>;
  /** Bytes to the client. */
  output: WritableStream<Uint8Array>;
  /** Ends the process at once, for the `crash` command. */
  exit: (code: number) => never;
}

export interface RunningAgent {
  /** Resolves when the client has gone (its stream closed). */
  readonly closed: Promise<void>;
}

export const SCRIPTED_AGENT_INFO = { name: 'scripted-agent', title: 'Scripted agent', version: '0.1.0' } as const;

const INTERNAL_ERROR = -32603;

export function startAcpScriptedAgent(options: AcpScriptedAgentOptions): RunningAgent {
  const sessions = createSessionTable();
  // Set by initialize; the gate in the SDK app refuses other requests until then.
  let capabilities: ClientCapabilities = {};

  const app = agent({ name: SCRIPTED_AGENT_INFO.name })
    .onRequest(methods.agent.initialize, ({ params }): InitializeResponse => {
      capabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: 1,
        // It calls HTTP MCP servers (the `mcp` script commands).
        agentCapabilities: { loadSession: false, mcpCapabilities: { http: true } },
        agentInfo: { ...SCRIPTED_AGENT_INFO },
        authMethods: [],
      };
    })
    .onRequest(methods.agent.session.new, ({ params }) => ({ sessionId: sessions.create(params.cwd, params.mcpServers).id }))
    .onRequest(methods.agent.session.prompt, async ({ params, client, signal }): Promise<PromptResponse> => {
      const session = sessions.get(params.sessionId);
      if (!session) throw RequestError.sessionNotFound(params.sessionId);
      const turn = sessions.beginTurn(session);
      if (!turn) throw RequestError.invalidRequest(undefined, 'a prompt is already running in this session');
      // `$/cancel_request` for this prompt, or the connection closing, cancels the turn like session/cancel.
      const onRequestAborted = (): void => turn.abort();
      signal.addEventListener('abort', onRequestAborted, { once: true });
      try {
        const sink = createAcpSink({ client, sessionId: session.id, cwd: session.cwd, capabilities, signal: turn.signal });
        const commands = parseScript(promptText(params.prompt));
        const mcp = mcpCaller(session.mcpServers);
        const result = await runScript(commands, { cwd: session.cwd, sink, signal: turn.signal, exit: options.exit, ...(mcp && { mcp }) });
        if (result.stop === 'failed') throw new RequestError(INTERNAL_ERROR, result.message);
        if (result.stop !== 'end_turn' || !result.tokens) return { stopReason: result.stop };
        const { input, output } = result.tokens;
        // ACP's unstable `usage` of a prompt answer (not in the stable PromptResponse type): the tokens this turn took.
        const answer: PromptResponse & { usage: Usage } = { stopReason: result.stop, usage: { inputTokens: input, outputTokens: output, totalTokens: input + output } };
        return answer;
      } finally {
        signal.removeEventListener('abort', onRequestAborted);
        sessions.endTurn(session, turn);
      }
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (session) sessions.cancel(session);
    });

  const connection = app.connect(ndJsonStream(options.output, options.input));
  void connection.closed.then(() => sessions.cancelAll());
  return { closed: connection.closed };
}

/** The script is the prompt's text; images, resources and other blocks have nothing to say to it. */
function promptText(prompt: readonly ContentBlock[]): string {
  return prompt
    .map((block) => (block.type === 'text' ? block.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}
