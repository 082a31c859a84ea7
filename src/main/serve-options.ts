// The headless host's command line: parsed and checked before anything starts. Pure.
import { parseArgs } from 'node:util';
import { PROMPT_PAD_ORIGIN } from './core/http/security';

export interface ServeOptions {
  repo: string;
  port: number;
  host: string;
  token?: string;
  dataDir?: string;
  agent: string;
  concurrency: number;
  baseBranch?: string;
  allowedOrigins: string[];
  allowedHosts: string[];
  serverName?: string;
}

export class UsageError extends Error {}

export const USAGE = `Usage: npm run serve -- --repo PATH [options]

  --repo PATH            git repository the agents work on (required)
  --port N               port to listen on (default 1337; 0 picks a free one)
  --host ADDRESS         address to listen on (default 127.0.0.1)
  --token TOKEN          bearer token clients must send (default: generated once, kept in the data dir)
  --data-dir DIR         where the database, worktrees and token live
  --agent ID             default agent (default: scripted)
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
        repo: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, token: { type: 'string' },
        'data-dir': { type: 'string' }, agent: { type: 'string' }, concurrency: { type: 'string' },
        'base-branch': { type: 'string' }, 'allow-origin': { type: 'string', multiple: true },
        'allow-host': { type: 'string', multiple: true }, 'server-name': { type: 'string' }, help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]} (see --help)`);
  }
  if (values.help) return 'help';
  if (!values.repo) throw new UsageError('--repo PATH is required: the git repository the agents work on (see --help)');
  const token = values.token;
  if (token !== undefined && !/^[A-Za-z0-9._~+/=-]{16,}$/.test(token)) {
    throw new UsageError('--token must be at least 16 characters of letters, digits or ._~+/=-');
  }
  const origins = (values['allow-origin'] ?? []).map((origin) => {
    if (!/^https?:\/\/[^/\s]+$/i.test(origin)) throw new UsageError(`--allow-origin "${origin}" is not an origin like https://example.com`);
    return origin;
  });
  return {
    repo: values.repo,
    port: integer(values.port ?? '1337', '--port', 0, 65535),
    host: values.host ?? '127.0.0.1',
    ...(token !== undefined && { token }),
    ...(values['data-dir'] !== undefined && { dataDir: values['data-dir'] }),
    agent: values.agent ?? 'scripted',
    concurrency: integer(values.concurrency ?? '2', '--concurrency', 1, 64),
    ...(values['base-branch'] !== undefined && { baseBranch: values['base-branch'] }),
    allowedOrigins: [PROMPT_PAD_ORIGIN, ...origins],
    allowedHosts: (values['allow-host'] ?? []).map((h) => h.toLowerCase()),
    ...(values['server-name'] !== undefined && { serverName: values['server-name'] }),
  };
}

function integer(raw: string, flag: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return value;
}
