// Test support for the scripted agent's integration tests: starts the real process in a temp dir and talks
// to it as a client would (the SDK's client app for the standard dialect, raw ndjson lines for Kandev).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  client,
  methods,
  ndJsonStream,
  type ActiveSession,
  type ClientCapabilities,
  type ClientContext,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type InitializeResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk';
import { TestTerminals } from './scripted-agent-test-terminals';

const MAIN = fileURLToPath(new URL('./scripted-agent-main.ts', import.meta.url));
// Resolved here, not by name: the agent runs with a temp dir as cwd, where `--import tsx` would not be found.
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Everything a test started, so afterEach can end it. */
export class TestResources {
  private readonly cleanups: (() => Promise<void>)[] = [];

  async tempDir(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'scripted-agent-'));
    this.cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  }

  spawnAgent(cwd: string, args: string[] = []): AgentProcess {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.on('error', () => {});
    this.cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    });
    return { child, exited, stderr: () => stderr };
  }

  onCleanup(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  async cleanup(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0).reverse()) await cleanup();
  }
}

export interface AgentProcess {
  child: ChildProcessWithoutNullStreams;
  exited: Promise<number | null>;
  stderr(): string;
}

export interface AcpClientOptions {
  fs?: { readTextFile?: boolean; writeTextFile?: boolean };
  terminal?: boolean;
  permission?: (request: RequestPermissionRequest) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
  elicitation?: (request: CreateElicitationRequest) => CreateElicitationResponse | Promise<CreateElicitationResponse>;
  /** Makes fs/write_text_file fail with this message. */
  refuseWrites?: string;
}

export interface Turn {
  updates: SessionUpdate[];
  stopReason?: StopReason;
  error?: Error & { code?: number };
}

export interface AcpTestClient {
  agent: ClientContext;
  process: AgentProcess;
  initializeResponse: InitializeResponse;
  /** Client-side requests the agent made, in order. */
  calls: { method: string; params: unknown }[];
  newSession(): Promise<ActiveSession>;
}

/** Starts the agent in `cwd`, connects the SDK's client app to it and initializes with `options`' capabilities. */
export async function connectAcpClient(resources: TestResources, cwd: string, options: AcpClientOptions = {}): Promise<AcpTestClient> {
  const agentProcess = resources.spawnAgent(cwd);
  const calls: AcpTestClient['calls'] = [];
  const terminals = new TestTerminals();
  resources.onCleanup(async () => terminals.releaseAll());
  const record = (method: string, params: unknown): void => {
    calls.push({ method, params });
  };

  const app = client({ name: 'scripted-agent-test' })
    .onRequest(methods.client.fs.readTextFile, async ({ method, params }) => {
      record(method, params);
      return { content: await readFile(params.path, 'utf8') };
    })
    .onRequest(methods.client.fs.writeTextFile, async ({ method, params }) => {
      record(method, params);
      if (options.refuseWrites !== undefined) throw new Error(options.refuseWrites);
      await writeFile(params.path, params.content, 'utf8');
      return {};
    })
    .onRequest(methods.client.session.requestPermission, async ({ method, params }) => {
      record(method, params);
      return options.permission ? options.permission(params) : { outcome: { outcome: 'selected', optionId: 'allow' } };
    })
    .onRequest(methods.client.elicitation.create, async ({ method, params }) => {
      record(method, params);
      return options.elicitation ? options.elicitation(params) : { action: 'decline' };
    })
    .onRequest(methods.client.terminal.create, ({ method, params }) => {
      record(method, params);
      return { terminalId: terminals.create(params.command, params.args ?? [], params.cwd ?? cwd) };
    })
    .onRequest(methods.client.terminal.waitForExit, ({ method, params }) => {
      record(method, params);
      return terminals.waitForExit(params.terminalId);
    })
    .onRequest(methods.client.terminal.output, ({ method, params }) => {
      record(method, params);
      return terminals.output(params.terminalId);
    })
    .onRequest(methods.client.terminal.release, ({ method, params }) => {
      record(method, params);
      terminals.release(params.terminalId);
      return {};
    });

  const stream = ndJsonStream(
    Writable.toWeb(agentProcess.child.stdin) as unknown as WritableStream<Uint8Array>,
    Readable.toWeb(agentProcess.child.stdout) as unknown as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  resources.onCleanup(async () => connection.close());
  const clientCapabilities: ClientCapabilities = { fs: options.fs ?? {}, terminal: options.terminal ?? false };
  const initializeResponse = await connection.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities });
  return {
    agent: connection.agent,
    process: agentProcess,
    initializeResponse,
    calls,
    newSession: () => connection.agent.buildSession(cwd).start(),
  };
}

/** Reads a session's updates until the prompt turn stops (or fails). */
export async function readTurn(session: ActiveSession): Promise<Turn> {
  const updates: SessionUpdate[] = [];
  for (;;) {
    try {
      const message = await session.nextUpdate();
      if (message.kind === 'stop') return { updates, stopReason: message.stopReason };
      updates.push(message.update);
    } catch (error) {
      return { updates, error: error as Error };
    }
  }
}

/** Sends a prompt and reads its whole turn. */
export async function promptTurn(session: ActiveSession, script: string): Promise<Turn> {
  // The outcome is read from the update queue, which also reports a failed prompt.
  session.prompt(script).catch(() => {});
  return readTurn(session);
}

/** The text of each agent message chunk, in order. */
export function messages(turn: Turn): string[] {
  return turn.updates.flatMap((update) =>
    update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' ? [update.content.text] : [],
  );
}

/** The text blocks of a tool call update's content. */
export function toolTexts(update: SessionUpdate | undefined): string[] {
  if (update?.sessionUpdate !== 'tool_call_update') return [];
  return (update.content ?? []).flatMap((item) =>
    item.type === 'content' && item.content.type === 'text' ? [item.content.text] : [],
  );
}

/** A client speaking the Kandev dialect with raw ndjson lines. */
export class KandevLineClient {
  readonly received: Record<string, unknown>[] = [];
  private readonly waiters: (() => void)[] = [];

  constructor(readonly agent: AgentProcess) {
    createInterface({ input: agent.child.stdout }).on('line', (line) => {
      this.received.push(JSON.parse(line) as Record<string, unknown>);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  sendLine(line: string): void {
    this.agent.child.stdin.write(`${line}\n`);
  }

  send(message: object): void {
    this.sendLine(JSON.stringify({ jsonrpc: '2.0', ...message }));
  }

  /** Resolves with the first received message (in arrival order) that matches. */
  async waitFor(matches: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    for (;;) {
      const found = this.received.find(matches);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** The `session/update` params received so far, in order. */
  updates(): { sessionId: string; type: string; data: Record<string, unknown> }[] {
    return this.received
      .filter((message) => message.method === 'session/update')
      .map((message) => message.params as { sessionId: string; type: string; data: Record<string, unknown> });
  }
}
