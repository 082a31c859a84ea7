// The desk's way to a forge for one repository: which forge its remote names, the API address, the token, and the
// forge's refusals as the desk's errors. Tokens stay here: they go to the forge's API and nowhere else.
import { deskError, type DeskError } from '../../../shared/desk-error';
import type { ForgeKind } from '../../../shared/pull-request';
import { ForgeError, type FetchLike, type ForgeApi } from './forge-api';
import { forgeRepository, remoteLocation, type ForgeRepository } from './forge-remote';
import { forgeToken, type TokenSources } from './forge-tokens';
import { GITHUB_API_DEFAULT, githubApi } from './github-api';
import { GITLAB_API_DEFAULT, gitlabApi } from './gitlab-api';

export interface ForgeAccess {
  /** A client for the repository behind `remoteUrl`. Throws `no_forge` or `forge_token_missing` saying what to do. */
  connect(remoteUrl: string, hosts: Readonly<Record<string, ForgeKind>>): { repository: ForgeRepository; api: ForgeApi };
}

/** What a desk built without forges (tests, tools) answers a pull request with. */
export const NO_FORGE_ACCESS: ForgeAccess = {
  connect: () => { throw deskError('unavailable', 'forges_unavailable', 'This desk was started without access to forges.'); },
};

const FORGE_NAME: Record<ForgeKind, string> = { github: 'GitHub', gitlab: 'GitLab' };

export function createForgeAccess(deps: TokenSources & { fetch: FetchLike }): ForgeAccess {
  return {
    connect(remoteUrl, hosts) {
      const repository = forgeRepository(remoteUrl, hosts);
      if (!repository) {
        const location = remoteLocation(remoteUrl);
        const where = location ? `${location.host}/${location.path}` : 'a local path';
        throw deskError('invalid', 'no_forge', `The remote points at ${where}, which is not on GitHub or GitLab. If its host is a GitHub Enterprise or a self-managed GitLab, name it in the repository's settings (.desk/config.json): "forge": {"hosts": {"<host>": "github" or "gitlab"}}.`);
      }
      const token = forgeToken(repository.kind, repository.host, deps);
      if (!token) {
        const how = repository.kind === 'github' ? 'set GH_TOKEN or GITHUB_TOKEN where the desk starts, or log in with `gh auth login`' : 'set GITLAB_TOKEN where the desk starts, or log in with `glab auth login`';
        throw deskError('invalid', 'forge_token_missing', `No ${FORGE_NAME[repository.kind]} token for ${repository.host}: ${how}. The token needs to push and open requests (GitHub: "repo" or pull requests: write; GitLab: "api").`);
      }
      const options = { fetch: deps.fetch, apiBase: apiBaseFor(repository, deps.env), token: token.token, repository: repository.path };
      return { repository, api: repository.kind === 'github' ? githubApi(options) : gitlabApi(options) };
    },
  };
}

/** GITHUB_API_URL / GITLAB_API_URL (as CI systems set them), else the public API, else the host's own API path. */
export function apiBaseFor(repository: ForgeRepository, env: Readonly<Record<string, string | undefined>>): string {
  if (repository.kind === 'github') {
    return env.GITHUB_API_URL?.trim() || (repository.host === 'github.com' ? GITHUB_API_DEFAULT : `https://${repository.host}/api/v3`);
  }
  return env.GITLAB_API_URL?.trim() || (repository.host === 'gitlab.com' ? GITLAB_API_DEFAULT : `https://${repository.host}/api/v4`);
}

/** A forge's refusal as the desk's error, in the forge's own words (the message never holds the token). */
export function forgeFailure(error: unknown): DeskError | undefined {
  if (!(error instanceof ForgeError)) return undefined;
  const { status, message, retryAt } = error;
  if (retryAt !== undefined) {
    const retryAfterSeconds = Math.max(1, Math.ceil((retryAt - Date.now()) / 1000));
    return deskError('too_many_requests', 'forge_rate_limited', `${message}. The desk asks again after ${new Date(retryAt).toISOString()}.`, { forgeStatus: status, retryAfterSeconds });
  }
  if (status === 0) return deskError('bad_gateway', 'forge_unreachable', message);
  if (status === 401) return deskError('forbidden', 'forge_token_refused', `${message}. The forge refused the token: check it (GH_TOKEN, GITHUB_TOKEN, GITLAB_TOKEN or your gh / glab login) and its scopes.`, { forgeStatus: status });
  if (status === 403) return deskError('forbidden', 'forge_forbidden', `${message}. The token may lack the scope to open requests, or the repository refuses them.`, { forgeStatus: status });
  if (status === 404) return deskError('not_found', 'forge_repository_not_found', `${message}. The repository does not exist there, or the token cannot see it.`, { forgeStatus: status });
  if (status === 409 || status === 422) return deskError('conflict', 'forge_refused', message, { forgeStatus: status });
  return deskError('bad_gateway', 'forge_failed', message, { forgeStatus: status });
}
