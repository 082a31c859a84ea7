// Several repositories in one desk: the whole Agent Assignment protocol again under `/r/<name>/`, bound to that
// repository, and the board's routes that list, open and close repositories.
import { z } from 'zod';
import { AddRepo, RepoInfo, RepoSetupSettings, ReposResponse } from '../repos';
import { aaRoutes } from './aa';
import { routesOf, Segment, type RouteDef } from './route';

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

const board = routesOf('Board API');
const repo = z.object({ name: Segment });

export const reposRoutes = {
  list: board.get('/api/repos', 'The open repositories, the default first, with each one\'s endpoint and setup.', { responses: { 200: ReposResponse } }),
  add: board.post('/api/repos', 'Open another repository (kept open across restarts).',
    { body: AddRepo, bodyKind: 'json', responses: { 201: RepoInfo }, errors: [400, 409] }),
  remove: board.delete('/api/repos/:name', 'Close a repository (nothing on disk changes); 409 while its tasks have not all finished.',
    { params: repo, responses: { 200: ReposResponse }, errors: [404, 409] }),
  setSetup: board.put('/api/repos/:name/setup', "The worktree setup used when the repository has no .desk/config.json ({} clears it).",
    { params: repo, body: RepoSetupSettings, bodyKind: 'json', responses: { 200: RepoInfo }, errors: [400, 404] }),
} as const;
