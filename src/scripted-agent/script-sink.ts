// What a dialect offers the script runner: how progress is reported, and how files, shells and the user are reached.
// Each dialect implements this once; the command logic in the runner is shared.

/** The tools a script can call; the dialects name them in their own vocabulary. */
export type ScriptTool = 'write' | 'append' | 'delete' | 'move' | 'read' | 'run';

/** Tokens counted in a turn by `usage` lines. */
export interface TokenTally { input: number; output: number }

export interface ToolCallStart {
  id: string;
  tool: ScriptTool;
  /** What a person reads, e.g. "Write notes/a.txt" or the shell command. */
  title: string;
  /** File tools: the path as the script wrote it, and resolved against the session's cwd. */
  scriptPath?: string;
  absolutePath?: string;
  /** The move tool: where the file goes, as written and resolved. */
  destinationPath?: string;
  absoluteDestination?: string;
  /** The run tool: the shell command line. */
  command?: string;
  /**
   * A write that asks first: the text it will write. The tool call announces it as Claude's Write does (`file_path`,
   * `content`), and the permission request then names only the tool call.
   */
  proposedText?: string;
}

export interface ToolCallEnd {
  status: 'completed' | 'failed';
  /** File changes; `oldText` is null when the file did not exist. */
  diff?: { path: string; oldText: string | null; newText: string };
  /** What the tool produced: the text read, or the command's output. */
  output?: string;
  /** Set when the command ran in a client terminal, whose output the client already shows. */
  terminalId?: string;
  /** Why the tool failed. */
  reason?: string;
}

export interface CommandOutcome {
  output: string;
  /** Null when the command ended by a signal or the exit code is unknown. */
  exitCode: number | null;
  terminalId?: string;
}

/** `allow-always`: the client chose the "Always allow" option (offered only after `offer-always`). */
export type PermissionOutcome = 'allow' | 'allow-always' | 'reject' | 'cancelled';

/**
 * What a permission request is about: a question in words (`ask`), or a tool call about to happen. `offerAlways`: offer
 * "Always allow" too, as Claude Code does.
 */
export type PermissionAsk = ({ question: string } | { call: ToolCallStart }) & { offerAlways?: true };

export interface ElicitationOutcome {
  /** `accept`, `decline`, `cancel`, or whatever else the client answered. */
  action: string;
  answer?: string;
}

/** Text files as the session sees them (through the client or on disk). */
export interface TextFiles {
  /** The file's text, or null when it does not exist. */
  read(absolutePath: string): Promise<string | null>;
  write(absolutePath: string, text: string): Promise<void>;
}

/** Everything the runner needs from a dialect. Each method resolves once the client has been told. */
export interface ScriptSink {
  /** A chunk of a message; `messageId` when the chunk is a whole message of its own (a `say`), so clients keep it apart. */
  message(text: string, messageId?: string): Promise<void>;
  thought(text: string): Promise<void>;
  plan(entries: readonly string[]): Promise<void>;
  /** Tokens the turn has used so far (a dialect without usage reports says nothing). */
  usage(turn: TokenTally): Promise<void>;
  toolStarted(call: ToolCallStart): Promise<void>;
  toolFinished(call: ToolCallStart, end: ToolCallEnd): Promise<void>;
  readonly files: TextFiles;
  runCommand(call: ToolCallStart, signal: AbortSignal): Promise<CommandOutcome>;
  askPermission(ask: PermissionAsk, signal: AbortSignal): Promise<PermissionOutcome>;
  elicit(text: string, signal: AbortSignal): Promise<ElicitationOutcome>;
}
