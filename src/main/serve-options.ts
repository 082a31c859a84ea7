// The headless host's command line: parsed and checked before anything starts. Pure.
import { parseArgs } from 'node:util';
import { AD_HOC_AGENT_ID } from './core/agents/agents-config';
import { splitCommandLine } from './core/agents/split-command';
import { PROMPT_PAD_ORIGIN } from './core/http/security';
import { DeskError, isDeskError } from '../shared/desk-error';

export interface ServeOptions {
  /** The first `--repo`: the default repository, the one `/` speaks for. */
  repo: string;
  /** Every further `--repo`, each served at `/r/<folder name>/`. */
  moreRepos: string[];
  port: number;
  host: string;
  token?: string;
  dataDir?: string;
  agent: string;
  /** `--agent-command` split into words: the ad-hoc agent's program and arguments. */
  agentCommand?: string[];
  /** Its dialect; absent means the desk finds out at `initialize`. */
  agentDialect?: 'acp' | 'kandev';
  concurrency: number;
  baseBranch?: string;
  allowedOrigins: string[];
  allowedHosts: string[];
  serverName?: string;
}

/** A command line serve cannot use; serve prints its message and the usage, and exits 2. */
export const usageError = (message: string) => new DeskError('invalid', 'usage', message);

export const USAGE = `Usage: npm run serve -- --repo PATH [options]

  --repo PATH            git repository the agents work on (required; repeat it to open several: the first
                         is the default at /, each other one is served at /r/<folder name>/)
  --port N               port to listen on (default 1337; 0 picks a free one)
  --host ADDRESS         address to listen on (default 127.0.0.1)
  --token TOKEN          bearer token clients must send (default: generated once, kept in the data dir)
  --data-dir DIR         where the database, worktrees and token live
  --agent ID             default agent (default: the ad-hoc agent if --agent-command is given, else scripted)
  --agent-command 'CMD ARGS'
                         run this command as an agent (id "ad-hoc"); quote it as one argument
  --agent-dialect acp|kandev
                         the ad-hoc agent's protocol (default: detected when it starts)
  --concurrency N        agents running at once (default 2)
  --base-branch NAME     branch tasks start from (default: the repository's current branch)
  --allow-origin ORIGIN  a web page origin that may call the desk (repeatable; Prompt Pad's is allowed)
  --allow-host NAME      a Host name to accept besides localhost and loopback addresses (repeatable)
  --server-name TEXT     the serverName reported by GET /
  --help                 show this help`;

export function parseServeOptions(argv: readonly string[]): ServeOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        repo: { type: 'string', multiple: true }, port: { type: 'string' }, host: { type: 'string' }, token: { type: 'string' },
        'data-dir': { type: 'string' }, agent: { type: 'string' },
        'agent-command': { type: 'string' }, 'agent-dialect': { type: 'string' }, concurrency: { type: 'string' },
        'base-branch': { type: 'string' }, 'allow-origin': { type: 'string', multiple: true },
        'allow-host': { type: 'string', multiple: true }, 'server-name': { type: 'string' }, help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw usageError(`${(error as Error).message.split('\n')[0]} (see --help)`);
  }
  if (values.help) return 'help';
  const [repo, ...moreRepos] = values.repo ?? [];
  if (!repo) throw usageError('--repo PATH is required: the git repository the agents work on (see --help)');
  const token = values.token;
  if (token !== undefined && !/^[A-Za-z0-9._~+/=-]{16,}$/.test(token)) {
    throw usageError('--token must be at least 16 characters of letters, digits or ._~+/=-');
  }
  const origins = (values['allow-origin'] ?? []).map((origin) => {
    if (!/^https?:\/\/[^/\s]+$/i.test(origin)) throw usageError(`--allow-origin "${origin}" is not an origin like https://example.com`);
    return origin;
  });
  const agentCommand = values['agent-command'] === undefined ? undefined : commandWords(values['agent-command']);
  const agentDialect = values['agent-dialect'];
  if (agentDialect !== undefined && agentCommand === undefined) throw usageError('--agent-dialect applies to --agent-command; give both');
  if (agentDialect !== undefined && agentDialect !== 'acp' && agentDialect !== 'kandev') {
    throw usageError(`--agent-dialect must be acp or kandev (got "${agentDialect}")`);
  }
  return {
    repo,
    moreRepos,
    port: integer(values.port ?? '1337', '--port', 0, 65535),
    host: values.host ?? '127.0.0.1',
    ...(token !== undefined && { token }),
    ...(values['data-dir'] !== undefined && { dataDir: values['data-dir'] }),
    agent: values.agent ?? (agentCommand ? AD_HOC_AGENT_ID : 'scripted'),
    ...(agentCommand && { agentCommand }),
    ...(agentDialect !== undefined && { agentDialect }),
    concurrency: integer(values.concurrency ?? '2', '--concurrency', 1, 64),
    ...(values['base-branch'] !== undefined && { baseBranch: values['base-branch'] }),
    allowedOrigins: [PROMPT_PAD_ORIGIN, ...origins],
    allowedHosts: (values['allow-host'] ?? []).map((h) => h.toLowerCase()),
    ...(values['server-name'] !== undefined && { serverName: values['server-name'] }),
  };
}

function commandWords(line: string): string[] {
  try {
    return splitCommandLine(line);
  } catch (error) {
    if (isDeskError(error, 'invalid_command_line')) throw usageError(`--agent-command: ${error.message}`);
    throw error;
  }
}

function integer(raw: string, flag: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw usageError(`${flag} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return value;
}
