// The script commands that are tool calls (file edits, reads, moves, shell commands): announce, do the work, report.
// Deleting and moving ask the client's permission first, as a real agent does; so do a command run with
// `ask-run` and a write with `ask-write`. A failed tool (a refusal too) is reported and the turn goes on; only a cancel stops it.
import { newId } from './ids';
import { resolve } from 'node:path';
import { deleteFile, moveFile, pathExists, readTextIfExists } from './disk-files';
import { resolveConflictMarkers, type ScriptCommand } from './script';
import { askPermission } from './standing-permissions';
import type { ScriptSink, ToolCallEnd, ToolCallStart } from './script-sink';
import { TurnCancelled, isCancellation, reasonOf, untilCancelled } from './turn-cancellation';

export interface StepContext {
  cwd: string;
  sink: ScriptSink;
  signal: AbortSignal;
  /** Whether permission requests offer "Always allow" too (`offer-always`). */
  always?: { offered: boolean };
}

type FileCommand = Extract<ScriptCommand, { kind: 'write' | 'append' | 'delete' | 'read' | 'resolve' }>;
type MoveCommand = Extract<ScriptCommand, { kind: 'move' }>;
type RunCommand = Extract<ScriptCommand, { kind: 'run' }>;

const VERBS: Record<FileCommand['kind'], string> = { write: 'Write', append: 'Append', delete: 'Delete', read: 'Read', resolve: 'Resolve conflicts in' };

export async function runFileStep(command: FileCommand, context: StepContext): Promise<void> {
  const absolutePath = resolve(context.cwd, command.path);
  const call: ToolCallStart = {
    id: newId(),
    // Resolving is an edit of the file, reported as a write with its diff.
    tool: command.kind === 'resolve' ? 'write' : command.kind,
    // An asking write is titled as claude-code-acp titles its Write: by the absolute path.
    title: `${VERBS[command.kind]} ${command.kind === 'write' && command.askFirst === true ? absolutePath : command.path}`,
    scriptPath: command.path,
    absolutePath,
    ...(command.kind === 'write' && command.askFirst === true && { proposedText: `${command.text}\n` }),
  };
  await performTool(call, context, async () => {
    if (call.proposedText !== undefined) await permitted(call, context);
    if (command.kind === 'delete') {
      // Nothing to ask about a file that is not there.
      if (!(await pathExists(absolutePath))) throw new Error(`${command.path} does not exist`);
      await permitted(call, context);
    }
    return fileWork(command, absolutePath, context.sink);
  });
}

export async function runMoveStep(command: MoveCommand, context: StepContext): Promise<void> {
  const from = resolve(context.cwd, command.from);
  const to = resolve(context.cwd, command.to);
  const call: ToolCallStart = {
    id: newId(),
    tool: 'move',
    title: `Move ${command.from} to ${command.to}`,
    scriptPath: command.from,
    absolutePath: from,
    destinationPath: command.to,
    absoluteDestination: to,
  };
  await performTool(call, context, async () => {
    if (!(await pathExists(from))) throw new Error(`${command.from} does not exist`);
    // A move that would silently replace another file is refused, as `delete` refuses a missing one.
    if (await pathExists(to)) throw new Error(`${command.to} already exists`);
    await permitted(call, context);
    // Like deleting, moving is not part of the client file API, so it happens on disk.
    await moveFile(from, to);
    return { status: 'completed', output: `Moved ${command.from} to ${command.to}` };
  });
}

export async function runShellStep(command: RunCommand, context: StepContext): Promise<void> {
  const call: ToolCallStart = { id: newId(), tool: 'run', title: command.command, command: command.command };
  await performTool(call, context, async () => {
    if (command.askFirst === true) await permitted(call, context);
    const outcome = await context.sink.runCommand(call, context.signal);
    const end: ToolCallEnd = { status: outcome.exitCode === 0 ? 'completed' : 'failed', output: outcome.output };
    if (outcome.terminalId !== undefined) end.terminalId = outcome.terminalId;
    if (end.status === 'failed') {
      end.reason = outcome.exitCode === null ? 'the command was stopped by a signal' : `exit code ${outcome.exitCode}`;
    }
    return end;
  });
}

/** Asks the client before a tool that destroys or runs something; anything but "allow" leaves everything as it was. */
async function permitted(call: ToolCallStart, context: StepContext): Promise<void> {
  const outcome = await askPermission(context, { call });
  if (outcome !== 'allow') throw new Error('rejected by the client');
}

async function fileWork(command: FileCommand, absolutePath: string, sink: ScriptSink): Promise<ToolCallEnd> {
  switch (command.kind) {
    case 'write':
    case 'append': {
      const oldText = await sink.files.read(absolutePath);
      const line = `${command.text}\n`;
      const newText = command.kind === 'write' ? line : (oldText ?? '') + line;
      await sink.files.write(absolutePath, newText);
      return { status: 'completed', diff: { path: absolutePath, oldText, newText } };
    }
    case 'delete': {
      // Deleting is not part of the client file API, so it always happens on disk.
      const oldText = await readTextIfExists(absolutePath);
      if (oldText === null) throw new Error(`${command.path} does not exist`);
      await deleteFile(absolutePath);
      return { status: 'completed', diff: { path: absolutePath, oldText, newText: '' } };
    }
    case 'resolve': {
      const oldText = await sink.files.read(absolutePath);
      if (oldText === null) throw new Error(`${command.path} does not exist`);
      const newText = resolveConflictMarkers(oldText, command.keep);
      await sink.files.write(absolutePath, newText);
      return { status: 'completed', diff: { path: absolutePath, oldText, newText } };
    }
    case 'read': {
      const text = await sink.files.read(absolutePath);
      if (text === null) throw new Error(`${command.path} does not exist`);
      return { status: 'completed', output: text };
    }
  }
}

async function performTool(call: ToolCallStart, context: StepContext, work: () => Promise<ToolCallEnd>): Promise<void> {
  const { sink, signal } = context;
  await sink.toolStarted(call);
  let end: ToolCallEnd;
  try {
    end = await untilCancelled(work(), signal);
  } catch (error) {
    if (isCancellation(error, signal)) {
      // Close the tool call the client is showing before the turn reports `cancelled`.
      await sink.toolFinished(call, { status: 'failed', reason: 'cancelled' }).catch(() => {});
      throw new TurnCancelled();
    }
    end = { status: 'failed', reason: reasonOf(error) };
  }
  await sink.toolFinished(call, end);
  if (end.status === 'failed') await sink.message(`${call.tool} failed: ${end.reason ?? 'unknown reason'}`);
}
