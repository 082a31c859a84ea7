// Where the desk finds a token for a forge: the desk's environment first (GH_TOKEN, GITHUB_TOKEN, GITLAB_TOKEN, as the
// forges' own CLIs read them), then the person's `gh` or `glab` login file. Pure: the files are read by the caller.
import type { ForgeKind } from '../../../shared/pull-request';

export interface ForgeToken {
  token: string;
  /** Where it came from, for messages (never the token itself). */
  source: string;
}

export interface TokenSources {
  env: Readonly<Record<string, string | undefined>>;
  /** The text of a file under the home directory, or undefined when it is not there. */
  readHomeFile(relativePath: string): string | undefined;
}

const ENV_NAMES: Record<ForgeKind, readonly string[]> = { github: ['GH_TOKEN', 'GITHUB_TOKEN'], gitlab: ['GITLAB_TOKEN'] };

export function forgeToken(kind: ForgeKind, host: string, sources: TokenSources): ForgeToken | undefined {
  for (const name of ENV_NAMES[kind]) {
    const value = sources.env[name]?.trim();
    if (value) return { token: value, source: name };
  }
  if (kind === 'github') {
    const text = sources.readHomeFile('.config/gh/hosts.yml');
    const token = text === undefined ? undefined : yamlValueUnder(text, [host], 'oauth_token');
    return token ? { token, source: '~/.config/gh/hosts.yml (gh auth login)' } : undefined;
  }
  const text = sources.readHomeFile('.config/glab-cli/config.yml');
  const token = text === undefined ? undefined : yamlValueUnder(text, ['hosts', host], 'token');
  return token ? { token, source: '~/.config/glab-cli/config.yml (glab auth login)' } : undefined;
}

/**
 * A scalar in the simple block YAML the two CLIs write: `key` inside the nested mappings `parents` (by indentation).
 * Enough for their login files; anything cleverer (anchors, flow style) reads as not found.
 */
export function yamlValueUnder(text: string, parents: readonly string[], key: string): string | undefined {
  const path: Array<{ indent: number; name: string }> = [];
  for (const line of text.split(/\r?\n/)) {
    const entry = /^(\s*)([^#\s][^:]*?):(?:\s+(.*?))?\s*$/.exec(line);
    if (!entry) continue;
    const indent = entry[1]!.length;
    while (path.length > 0 && path[path.length - 1]!.indent >= indent) path.pop();
    const name = unquote(entry[2]!);
    const value = entry[3] === undefined || entry[3] === '' ? undefined : unquote(entry[3]);
    if (value === undefined) {
      path.push({ indent, name });
      continue;
    }
    if (name === key && path.length === parents.length && path.every((step, index) => step.name === parents[index])) return value;
  }
  return undefined;
}

function unquote(text: string): string {
  const trimmed = text.trim();
  return /^(['"]).*\1$/.test(trimmed) ? trimmed.slice(1, -1) : trimmed;
}
