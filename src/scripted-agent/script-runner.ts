// Runs a parsed script against a dialect's sink: the one place that knows what each command does.
import { newId } from './ids';
import type { ScriptCommand } from './script';
import type { ScriptSink, TokenTally } from './script-sink';
import type { McpCall } from './mcp-calls';
import { askPermission } from './standing-permissions';
import { runFileStep, runMoveStep, runShellStep } from './tool-steps';
import { cancellableSleep, isCancellation, reasonOf, throwIfCancelled, untilCancelled } from './turn-cancellation';

export interface TurnOptions {
  /** The session's working directory; relative paths in the script are resolved against it. */
  cwd: string;
  sink: ScriptSink;
  /** Aborted when the client cancels the turn. */
  signal: AbortSignal;
  /** Ends the process at once, for `crash`. */
  exit: (code: number) => never;
  /** Calls a tool of the MCP server the session was given; absent when it got none. */
  mcp?: McpCall;
}

/** How a turn ended. `failed` carries the message the client gets as an error. */
export type TurnResult = { stop: 'end_turn'; tokens?: TokenTally } | { stop: 'cancelled' } | { stop: 'failed'; message: string };

type StepResult = TurnResult | 'next';

const END_TURN: TurnResult = { stop: 'end_turn' };
const CANCELLED: TurnResult = { stop: 'cancelled' };

export async function runScript(commands: readonly ScriptCommand[], turnOptions: TurnOptions): Promise<TurnResult> {
  let tokens: TokenTally | undefined;
  // What `offer-always` switches on lasts for the rest of the turn.
  const options: StepOptions = { ...turnOptions, always: { offered: false } };
  try {
    for (const command of commands) {
      throwIfCancelled(options.signal);
      if (command.kind === 'usage') {
        tokens = { input: (tokens?.input ?? 0) + command.input, output: (tokens?.output ?? 0) + command.output };
        await options.sink.usage(tokens);
        continue;
      }
      const result = await runStep(command, options);
      if (result !== 'next') return result;
    }
    throwIfCancelled(options.signal);
    return tokens ? { stop: 'end_turn', tokens } : END_TURN;
  } catch (error) {
    if (isCancellation(error, options.signal)) return CANCELLED;
    throw error;
  }
}

type StepOptions = TurnOptions & { always: { offered: boolean } };

async function runStep(command: ScriptCommand, options: StepOptions): Promise<StepResult> {
  const { sink } = options;
  switch (command.kind) {
    case 'say':
      // Each line said is a message of its own, as an agent's separate replies are: it gets its own id.
      await sink.message(command.text, newId());
      return 'next';
    case 'think':
      await sink.thought(command.text);
      return 'next';
    case 'plan':
      await sink.plan(command.entries);
      return 'next';
    case 'write':
    case 'append':
    case 'delete':
    case 'read':
    case 'resolve':
      await runFileStep(command, options);
      return 'next';
    case 'move':
      await runMoveStep(command, options);
      return 'next';
    case 'run':
      await runShellStep(command, options);
      return 'next';
    case 'ask':
      return ask(command.question, options);
    case 'offer-always':
      options.always.offered = true;
      return 'next';
    case 'question':
      await question(command.text, sink, options.signal);
      return 'next';
    case 'sleep':
      await cancellableSleep(command.ms, options.signal);
      return 'next';
    case 'fail':
      return { stop: 'failed', message: command.message };
    case 'crash':
      return options.exit(command.code);
    case 'flood':
      await flood(command.count, sink, options.signal);
      return 'next';
    case 'spew':
      await spew(command.bytes, command.chunkBytes, sink, options.signal);
      return 'next';
    case 'mcp':
      await callMcp(command.tool, command.args, options);
      return 'next';
    case 'usage':
      // Counted by runScript, which keeps the turn's tally.
      return 'next';
  }
}

/** Says what the tool answered; a refusal or an unreachable server is said too, and the script goes on. */
async function callMcp(tool: string, args: Record<string, string>, { mcp, sink, signal }: TurnOptions): Promise<void> {
  if (!mcp) {
    await sink.message(`MCP ${tool} failed: this session was given no HTTP MCP server`);
    return;
  }
  try {
    const result = await untilCancelled(mcp(tool, args), signal);
    await sink.message(result.isError ? `MCP ${tool} refused: ${result.text}` : `MCP ${tool}: ${result.text}`);
  } catch (error) {
    if (isCancellation(error, signal)) throw error;
    await sink.message(`MCP ${tool} failed: ${reasonOf(error)}`);
  }
}

async function ask(questionText: string, options: StepOptions): Promise<StepResult> {
  const { sink, signal } = options;
  let outcome;
  try {
    outcome = await untilCancelled(askPermission(options, { question: questionText }), signal);
  } catch (error) {
    if (isCancellation(error, signal)) throw error;
    // Without an answer there is no permission: stop the turn as a rejection would.
    await sink.message(`ask failed: ${reasonOf(error)}`);
    return END_TURN;
  }
  if (outcome === 'cancelled') return CANCELLED;
  if (outcome === 'allow') {
    await sink.message(`Allowed: ${questionText}`);
    return 'next';
  }
  await sink.message(`Rejected: ${questionText}`);
  return END_TURN;
}

async function question(text: string, sink: ScriptSink, signal: AbortSignal): Promise<void> {
  try {
    const outcome = await untilCancelled(sink.elicit(text, signal), signal);
    await sink.message(outcome.action === 'accept' ? `Answer: ${outcome.answer ?? ''}` : `No answer (${outcome.action})`);
  } catch (error) {
    if (isCancellation(error, signal)) throw error;
    await sink.message(`question failed: ${reasonOf(error)}`);
  }
}

/**
 * Sends `bytes` of ASCII message text in chunks of `chunkBytes`, as fast as the output stream takes them.
 * Each chunk starts with its number, so a reader can tell which part of the output it holds.
 */
async function spew(bytes: number, chunkBytes: number, sink: ScriptSink, signal: AbortSignal): Promise<void> {
  const filler = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(Math.ceil(chunkBytes / 36) + 1);
  for (let sent = 0, index = 1; sent < bytes; index += 1) {
    throwIfCancelled(signal);
    const size = Math.min(chunkBytes, bytes - sent);
    const head = `<${index}>`;
    const text = size <= head.length + 1 ? filler.slice(0, size) : `${head}${filler.slice(0, size - head.length - 1)}\n`;
    await sink.message(text);
    sent += size;
  }
}

async function flood(count: number, sink: ScriptSink, signal: AbortSignal): Promise<void> {
  // One chunk at a time: each send resolves only once the output stream takes it, which is our backpressure.
  for (let i = 1; i <= count; i++) {
    throwIfCancelled(signal);
    await sink.message(`flood ${i}\n`);
  }
}

