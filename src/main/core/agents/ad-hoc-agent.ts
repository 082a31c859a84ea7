// The agent `--agent-command 'CMD ARGS'` describes: tried at once, without editing agents.json. Pure.
import { basename, isAbsolute, resolve } from 'node:path';
import { AD_HOC_AGENT_ID } from './agents-config';
import type { AgentSpec } from './agent-spec';
import { vendorOf } from './agent-vendor';
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
  // `--agent-command 'gemini --acp'` (also wrapped: `env HOME=x gemini --acp`, `npx @google/gemini-cli --acp`)
  // still gets Gemini's keys, state dirs and hosts; any other program gets none.
  const match = vendorOf(words, known);
  return {
    id: AD_HOC_AGENT_ID,
    name: match ? `${match.name} (ad hoc)` : `Ad-hoc agent (${basename(program)})`,
    command,
    args,
    dialect: dialect ?? 'auto',
    envAllowlist: match ? [...match.envAllowlist] : [],
    env: {},
    ...(match?.stateDirs && { stateDirs: [...match.stateDirs] }),
    ...(match?.stateFiles && { stateFiles: [...match.stateFiles] }),
    ...(match?.networkHosts && { networkHosts: [...match.networkHosts] }),
  };
}
