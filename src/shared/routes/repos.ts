// Several repositories in one desk: the whole Agent Assignment protocol again under `/r/<name>/`, bound to that
// repository, and the board's routes that list, open and close repositories.
import { z } from 'zod';
import { ApiErrorBody } from '../api-error';
import { AddRepo, RepoInfo, RepoSetupSettings, ReposResponse } from '../repos';
import { aaRoutes } from './aa';
import { defineRoute, Segment, type RouteDef } from './route';

/** `route` under `/r/:repo`, with the repository as its first path parameter. */
function underRepo<const R extends RouteDef>(route: R) {
  return {
    ...route,
    path: `/r/:repo${route.path}` as `/r/:repo${R['path']}`,
    params: (route.params ?? z.object({})).extend({ repo: Segment }),
    summary: `${route.summary} In the repository named in the path.`,
    errors: [...new Set([...(route.errors ?? []), 404])],
  };
}

type AaRoutes = typeof aaRoutes;
type RepoAaRoutes = { [K in keyof AaRoutes]: ReturnType<typeof underRepo<AaRoutes[K]>> };

/** The Agent Assignment protocol of one repository: `/r/<name>/` lists and takes only its tasks. */
export const repoAaRoutes = Object.fromEntries(
  Object.entries(aaRoutes).map(([key, route]) => [key, underRepo(route)]),
) as RepoAaRoutes;

/** `/r/<name>` without the trailing slash: a client pointed at it submits and lists all the same. */
export const repoBareRoutes = {
  submit: underRepo({ ...aaRoutes.submit, path: '' }),
  list: underRepo({ ...aaRoutes.list, path: '' }),
} as const;

const family = 'Board API';
const repo = z.object({ name: Segment });
const error = ApiErrorBody;

export const reposRoutes = {
  list: defineRoute({
    method: 'GET', path: '/api/repos', family, summary: 'The open repositories, the default first, with each one\'s endpoint and setup.',
    responses: { 200: ReposResponse }, error,
  }),
  add: defineRoute({
    method: 'POST', path: '/api/repos', family, summary: 'Open another repository (kept open across restarts).',
    body: AddRepo, bodyKind: 'json', responses: { 201: RepoInfo }, error, errors: [400, 409],
  }),
  remove: defineRoute({
    method: 'DELETE', path: '/api/repos/:name', family, summary: 'Close a repository (nothing on disk changes); 409 while its tasks have not all finished.',
    params: repo, responses: { 200: ReposResponse }, error, errors: [404, 409],
  }),
  setSetup: defineRoute({
    method: 'PUT', path: '/api/repos/:name/setup', family, summary: "The worktree setup used when the repository has no .desk/config.json ({} clears it).",
    params: repo, body: RepoSetupSettings, bodyKind: 'json', responses: { 200: RepoInfo }, error, errors: [400, 404],
  }),
} as const;
