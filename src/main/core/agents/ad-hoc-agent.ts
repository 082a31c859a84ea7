// The agent `--agent-command 'CMD ARGS'` describes: tried at once, without editing agents.json. Pure.
import { basename, extname, isAbsolute, resolve } from 'node:path';
import { AD_HOC_AGENT_ID } from './agents-config';
import type { AgentSpec } from './agent-spec';
import type { KnownAgent } from './known-agents';

export interface AdHocOptions {
  /** The command line already split into words; the first is the program. */
  words: readonly string[];
  dialect?: 'acp' | 'kandev';
  /** Where the person typed the command: a relative program path is taken from here, not from each worktree. */
  cwd: string;
  known: readonly KnownAgent[];
}

export function adHocAgentSpec({ words, dialect, cwd, known }: AdHocOptions): AgentSpec {
  const [program, ...args] = words;
  if (program === undefined) throw new Error('An ad-hoc agent needs a command.');
  const command = !isAbsolute(program) && /[\\/]/.test(program) ? resolve(cwd, program) : program;
  // `--agent-command 'gemini --acp'` should still get Gemini's keys; any other program gets none.
  const programName = basename(program, extname(program));
  const match = known.find((agent) => agent.command === programName);
  return {
    id: AD_HOC_AGENT_ID,
    name: match ? `${match.name} (ad hoc)` : `Ad-hoc agent (${basename(program)})`,
    command,
    args,
    dialect: dialect ?? 'auto',
    envAllowlist: match ? [...match.envAllowlist] : [],
    env: {},
  };
}
