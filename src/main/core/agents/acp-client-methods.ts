// The client side of standard ACP requests an agent makes (permissions, questions, files, terminals), as an SDK
// client app. The SDK has parsed every request with the ACP schemas before a handler here runs.
import { RequestError, client, methods, type ClientApp, type CreateElicitationRequest, type RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { INVALID_PARAMS } from '../../../shared/json-rpc-peer';
import { fileError, protocolError } from './acp-errors';
import { mapAcpUpdate } from './acp-update-mapper';
import { createAnnouncedToolCalls } from './announced-tool-calls';
import type { ToolCallMemory } from './tool-call-memory';
import { terminalMetaEvents } from './terminal-meta';
import type { ElicitationRequest, PermissionRequest, SessionCallbacks } from './agent-session';

/**
 * Builds the desk's client app. `isReplaying()` is true while the agent replays an earlier session's history
 * (`session/load`): those updates are already recorded, so they are not recorded twice. `toolCalls` completes a
 * permission request with what the session's updates said about the same tool call.
 */
export function deskClientApp({ onUpdate, onTerminal, handlers }: SessionCallbacks, isReplaying: () => boolean, toolCalls: Pick<ToolCallMemory, 'judged'>): ClientApp {
  const { terminals } = handlers;
  const announced = createAnnouncedToolCalls();
  return client({ name: 'assignment-desk' })
    .onNotification(methods.client.session.update, ({ params }) => {
      announced.saw(params.update);
      if (isReplaying()) return;
      onUpdate(mapAcpUpdate(params.update));
      for (const event of terminalMetaEvents(params.update)) onTerminal?.(event);
    })
    .onRequest(methods.client.session.requestPermission, served(async ({ params }) => {
      const started = announced.announce(params.toolCall);
      if (started) onUpdate(started);
      const request = toPermissionRequest(params);
      return { outcome: await handlers.requestPermission({ ...request, toolCall: toolCalls.judged(request.toolCall) }) };
    }))
    .onRequest(methods.client.elicitation.create, served(async ({ params }) => handlers.elicit(toElicitationRequest(params))))
    .onRequest(methods.client.fs.readTextFile, served(async ({ params }) => {
      const line = positive(params.line, 'line');
      const limit = positive(params.limit, 'limit');
      const read = handlers.readTextFile({ path: params.path, ...(line && { line }), ...(limit && { limit }) });
      return { content: await read.catch((error: unknown) => { throw fileError(error, params.path, 'read'); }) };
    }))
    .onRequest(methods.client.fs.writeTextFile, served(async ({ params }) => {
      await handlers.writeTextFile({ path: params.path, content: params.content }).catch((error: unknown) => { throw fileError(error, params.path, 'write'); });
      return {};
    }))
    .onRequest(methods.client.terminal.create, served(async ({ params }) => terminals.create({
      command: params.command,
      args: params.args ?? [],
      env: (params.env ?? []).map(({ name, value }) => ({ name, value })),
      cwd: params.cwd ?? null,
      outputByteLimit: params.outputByteLimit ?? null,
    })))
    .onRequest(methods.client.terminal.output, served(async ({ params }) => terminals.output(params.terminalId)))
    .onRequest(methods.client.terminal.waitForExit, served(async ({ params }) => terminals.waitForExit(params.terminalId)))
    .onRequest(methods.client.terminal.kill, served(async ({ params }) => { terminals.kill(params.terminalId); return {}; }))
    .onRequest(methods.client.terminal.release, served(async ({ params }) => { terminals.release(params.terminalId); return {}; }));
}

/**
 * The SDK answers its own RequestError with its code and anything else as a bare "Internal error": every failure
 * of the desk's services becomes the RequestError ACP defines for its cause (acp-errors.ts).
 */
function served<C, R>(handler: (context: C) => Promise<R>): (context: C) => Promise<R> {
  return async (context) => {
    try {
      return await handler(context);
    } catch (error) {
      if (error instanceof RequestError) throw error;
      const answer = protocolError(error);
      throw new RequestError(answer.code, answer.message, answer.data);
    }
  };
}

export function toPermissionRequest(params: RequestPermissionRequest): PermissionRequest {
  const { toolCall } = params;
  return {
    toolCall: {
      toolCallId: toolCall.toolCallId,
      ...(typeof toolCall.title === 'string' && { title: toolCall.title }),
      ...(typeof toolCall.kind === 'string' && { kind: toolCall.kind }),
      ...(Array.isArray(toolCall.locations) && { locations: toolCall.locations.map(({ path }) => ({ path })) }),
      ...(toolCall.rawInput !== undefined && { rawInput: toolCall.rawInput }),
    },
    options: params.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
  };
}

function toElicitationRequest(params: CreateElicitationRequest): ElicitationRequest {
  return {
    message: params.message,
    mode: params.mode,
    ...('requestedSchema' in params && params.requestedSchema !== undefined && { requestedSchema: params.requestedSchema }),
    ...('url' in params && typeof params.url === 'string' && { url: params.url }),
  };
}

/** ACP lines and limits count from 1; the schema allows 0, which would read nothing useful. */
function positive(value: number | null | undefined, key: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Number.isInteger(value) || value < 1) throw new RequestError(INVALID_PARAMS, `${key} must be a positive integer`);
  return value;
}
