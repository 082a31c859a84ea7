// Which launch puts a command behind the sandbox's network bridge. Pure. A program that Node runs (Node itself, or a
// script whose `#!` names Node) gets the bridge inside its own Node, with no process of its own; anything else
// (a native binary, a shell) runs as the child of the bridge's wrapper.
import { BRIDGE_SETTINGS_VARIABLE } from './bridge-settings';

export interface BridgeLaunchInput {
  command: string;
  args: readonly string[];
  /** The bridge's flags (./bridge-settings.ts); none: the command runs as it is. */
  flags: readonly string[];
  /** The Node that runs the wrapper: the desk's own agent Node. */
  nodePath: string;
  /** Node arguments that run the wrapper program, before its flags. */
  wrapper: readonly string[];
  /** Node arguments that load the bridge into a Node program, before its own arguments. */
  preload: readonly string[];
  /** The command's first line when it is a file starting with `#!` (its path in `scriptPath`). */
  shebang?: string;
  /** Where the command was found (a bare name looked up on the agent's PATH). */
  scriptPath?: string;
  /** `node` on the agent's PATH, for a `#!/usr/bin/env node` script. */
  pathNode?: string;
}

export interface BridgeLaunch {
  command: string;
  args: string[];
  /** Variables to set for the launched program (the preload's flags). */
  env?: Record<string, string>;
  /** Which launch was chosen, for the task's log and tests. */
  kind: 'direct' | 'node-preload' | 'script-preload' | 'wrapper';
}

/** `node`, `nodejs`, `node.exe`, `node22`…: the names Node's binary goes by. */
const NODE_NAME = /(^|[/\\])node(js)?(\d+)?(\.exe)?$/;

export function bridgeLaunch(input: BridgeLaunchInput): BridgeLaunch {
  const { command, args, flags } = input;
  if (flags.length === 0) return { command, args: [...args], kind: 'direct' };
  const env = { [BRIDGE_SETTINGS_VARIABLE]: JSON.stringify(flags) };
  if (command === input.nodePath || NODE_NAME.test(command)) return { command, args: [...input.preload, ...args], env, kind: 'node-preload' };
  const interpreter = input.shebang === undefined ? undefined : nodeOfShebang(input.shebang, input.pathNode);
  if (interpreter && input.scriptPath !== undefined) {
    return { command: interpreter.node, args: [...interpreter.args, ...input.preload, input.scriptPath, ...args], env, kind: 'script-preload' };
  }
  return { command: input.nodePath, args: [...input.wrapper, ...flags, '--', command, ...args], kind: 'wrapper' };
}

/**
 * The Node a `#!` line runs, as the kernel would: `#!/usr/bin/env node` (Node found on PATH), or `#!/path/to/node`
 * with at most one argument (the kernel passes the rest of the line as one). Anything else (`env -S`, another
 * interpreter, a relative path) is not ours to imitate: undefined.
 */
export function nodeOfShebang(line: string, pathNode: string | undefined): { node: string; args: string[] } | undefined {
  const match = /^#!\s*(\/\S+)(?:[ \t]+(.*?))?\s*$/.exec(line);
  if (!match?.[1]) return undefined;
  const [, interpreter, rest] = match;
  if (/(^|\/)env$/.test(interpreter)) return rest !== undefined && NODE_NAME.test(rest) && !rest.includes('/') && pathNode ? { node: pathNode, args: [] } : undefined;
  if (!NODE_NAME.test(interpreter)) return undefined;
  return { node: interpreter, args: rest ? [rest] : [] };
}
