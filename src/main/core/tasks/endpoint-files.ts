// The model endpoints an agent's own config files name (Codex's `config.toml` `base_url`, OpenCode's and Qwen Code's
// `baseURL` / `baseUrl`), so a task's error or stall notice can say where the agent was pointed when no variable did.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { withoutCredentials } from './agent-trouble';

/** A config file bigger than this is not a settings file; it is not read. */
const LARGEST_FILE = 256 * 1024;

/** `base_url = "…"` (TOML) and `"baseURL": "…"` / `"baseUrl": "…"` (JSON): the URLs, without user or password. Pure. */
export function endpointsInConfig(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:^|[\s{,"])(?:base_url|baseURL|baseUrl)"?\s*[=:]\s*"([^"\n]+)"/gm)) {
    const url = match[1]?.trim();
    if (url) found.add(withoutCredentials(url));
  }
  return [...found];
}

/**
 * The endpoints named in `files` (`~/` is the agent's HOME, `$NAME` a variable of its environment; a file whose
 * variable is unset is skipped), as `<file> base URL=<url>`. Files that are missing or unreadable name nothing.
 */
export async function endpointsInFiles(files: readonly string[] | undefined, env: Readonly<Record<string, string>>): Promise<string[]> {
  const named: string[] = [];
  for (const file of files ?? []) {
    const path = resolveIn(file, env);
    if (path === undefined) continue;
    const size = await stat(path).then((info) => (info.isFile() ? info.size : undefined), () => undefined);
    if (size === undefined || size > LARGEST_FILE) continue;
    const text = await readFile(path, 'utf8').catch(() => '');
    for (const url of endpointsInConfig(text)) named.push(`${file} base URL=${url}`);
  }
  return named;
}

function resolveIn(file: string, env: Readonly<Record<string, string>>): string | undefined {
  if (file.startsWith('~/')) return env.HOME ? join(env.HOME, file.slice(2)) : undefined;
  const variable = /^\$([A-Za-z_][A-Za-z0-9_]*)(?:\/(.*))?$/.exec(file);
  if (variable) {
    const base = env[variable[1] as string];
    return base ? join(base, variable[2] ?? '') : undefined;
  }
  return file;
}
