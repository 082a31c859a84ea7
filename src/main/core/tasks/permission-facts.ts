// What an agent's permission request is about, in the terms the governance policy decides on. Pure.
import type { PermissionOption, PermissionOutcome, PermissionRequest } from '../agents/agent-session';

export interface RequestFacts {
  kind: string;
  title: string;
  /** Paths the request touches, as the agent gave them; the policy resolves them against the worktree. */
  paths: string[];
  command?: string;
}

export function permissionFacts(request: PermissionRequest): RequestFacts {
  const { toolCall } = request;
  const paths = [...new Set([...(toolCall.locations ?? []).map((l) => l.path), ...pathsOf(toolCall.rawInput)])];
  const kind = toolCall.kind ?? 'other';
  // An execute request that does not spell out its command is checked against its title, so denied
  // patterns still apply to "Run rm -rf /".
  const command = commandOf(toolCall.rawInput) ?? (kind === 'execute' ? toolCall.title : undefined);
  return {
    kind,
    title: toolCall.title ?? (command ? `Run ${command}` : 'An action without a description'),
    paths,
    ...(command !== undefined && { command }),
  };
}

/** The command line a tool call spells out in its raw input (never guessed from its title), as `permissionFacts` reads it. */
export function toolCallCommand(toolCall: PermissionRequest['toolCall']): string | undefined {
  return commandOf(toolCall.rawInput);
}

/** Agents name the files a tool touches under several keys of its raw input. */
function pathsOf(rawInput: unknown): string[] {
  if (typeof rawInput !== 'object' || rawInput === null) return [];
  const input = rawInput as Record<string, unknown>;
  const found: string[] = [];
  for (const key of ['path', 'file_path', 'filePath', 'file', 'abs_path', 'target', 'destination']) {
    if (typeof input[key] === 'string') found.push(input[key] as string);
  }
  if (Array.isArray(input.paths)) found.push(...input.paths.filter((p): p is string => typeof p === 'string'));
  return found;
}

/** Agents describe a shell command as `{command: "…"}`, `{command: [..]}` or `{cmd, args}` in the tool's raw input. */
function commandOf(rawInput: unknown): string | undefined {
  if (typeof rawInput !== 'object' || rawInput === null) return undefined;
  const input = rawInput as Record<string, unknown>;
  const command = input.command ?? input.cmd;
  const args = Array.isArray(input.args) ? input.args.map(String) : [];
  if (typeof command === 'string') return [command, ...args].join(' ');
  if (Array.isArray(command)) return command.map(String).join(' ');
  return undefined;
}

/** The option that says yes (or no) once, falling back to the "always" variant; undefined when the agent offers none. */
export function optionFor(options: readonly PermissionOption[], answer: 'allow' | 'reject'): PermissionOption | undefined {
  return options.find((o) => o.kind === `${answer}_once`) ?? options.find((o) => o.kind.startsWith(answer));
}

/**
 * What to send an agent when a person chose its "always allow" option: its "allow once" option, so that the agent keeps
 * no standing permission of its own (the desk keeps the answer instead); undefined when it offers none.
 */
export function alwaysAllowAnswer(options: readonly PermissionOption[]): PermissionOption | undefined {
  return options.find((o) => o.kind === 'allow_once');
}

/** The outcome to send for a policy decision. */
export function outcomeFor(options: readonly PermissionOption[], answer: 'allow' | 'reject'): PermissionOutcome {
  const option = optionFor(options, answer);
  return option ? { outcome: 'selected', optionId: option.optionId } : { outcome: 'cancelled' };
}
