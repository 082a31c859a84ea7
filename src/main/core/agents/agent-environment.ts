// The environment an agent process gets: a short allowlist of the desk's variables, never its secrets. Pure.
import type { AgentSpec } from './agent-spec';

/** What a command-line program needs to find tools, locale and temp space on each platform. */
const BASE_ALLOWLIST = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TERM', 'COLORTERM', 'TZ', 'TMPDIR', 'TMP', 'TEMP',
  'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'XDG_RUNTIME_DIR',
  'SystemRoot', 'SYSTEMROOT', 'ComSpec', 'COMSPEC', 'PATHEXT', 'WINDIR', 'APPDATA', 'LOCALAPPDATA', 'USERPROFILE',
  'HOMEDRIVE', 'HOMEPATH', 'ProgramFiles', 'ProgramData',
];
const BASE_PREFIXES = ['LC_'];

export function agentEnvironment(parent: NodeJS.ProcessEnv, spec: Pick<AgentSpec, 'envAllowlist' | 'env'>): Record<string, string> {
  const allowed = new Set([...BASE_ALLOWLIST, ...spec.envAllowlist]);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (allowed.has(name) || BASE_PREFIXES.some((prefix) => name.startsWith(prefix))) env[name] = value;
  }
  return { ...env, ...spec.env };
}
