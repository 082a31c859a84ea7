// Which forge a remote lives on, and which repository there, from its fetch URL alone. Pure.
import type { ForgeKind } from '../../../shared/pull-request';

export interface ForgeRepository {
  kind: ForgeKind;
  host: string;
  /** `owner/name` on GitHub; the full project path on GitLab, groups and subgroups included. */
  path: string;
}

const KNOWN_HOSTS: Record<string, ForgeKind> = { 'github.com': 'github', 'gitlab.com': 'gitlab' };

/**
 * The host and repository path of a remote URL: `https://host/owner/name(.git)`, `ssh://git@host:22/owner/name.git`,
 * or scp-like `git@host:owner/name.git`. Undefined for local paths and `file://` remotes.
 */
export function remoteLocation(url: string): { host: string; path: string } | undefined {
  const trimmed = url.trim();
  const withScheme = /^(https?|ssh|git):\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?\/(.+)$/i.exec(trimmed);
  const scpLike = !withScheme && /^(?:[^@/\s]+@)?([^/:\s]+):(?!\/\/)(.+)$/.exec(trimmed);
  const host = withScheme ? withScheme[2] : scpLike ? scpLike[1] : undefined;
  const rawPath = withScheme ? withScheme[3] : scpLike ? scpLike[2] : undefined;
  if (host === undefined || rawPath === undefined) return undefined;
  const path = rawPath.replace(/\/+$/, '').replace(/\.git$/, '').replace(/^\/+/, '');
  if (!/^[^/]+(\/[^/]+)+$/.test(path)) return undefined;
  return { host: host.toLowerCase(), path };
}

/**
 * The forge repository behind a remote, or undefined with nothing to open a request on. `moreHosts` names the
 * hosts a repository's settings declare (GitHub Enterprise, self-managed GitLab).
 */
export function forgeRepository(url: string, moreHosts: Readonly<Record<string, ForgeKind>> = {}): ForgeRepository | undefined {
  const location = remoteLocation(url);
  if (!location) return undefined;
  const kind = moreHosts[location.host] ?? KNOWN_HOSTS[location.host];
  if (!kind) return undefined;
  // GitHub repositories are exactly owner/name; GitLab nests groups.
  if (kind === 'github' && location.path.split('/').length !== 2) return undefined;
  return { kind, ...location };
}
