// The routes a request can reach without the router: those whose path has no parameters, asked for exactly (no query,
// no other spelling). `POST /` and `GET /` are nearly all of a busy desk's requests, and for them Hono's dispatch
// (its context, the middleware chain, a URL per request) was about 6% of a submission's time.
// Everything else, every refusal of an unknown path included, still goes through the Hono app.
import type { IncomingMessage } from 'node:http';
import { MCP_PATH } from '../../../shared/mcp';
import { apiRoutes } from '../../../shared/routes';
import { RUNNER_PATH_PREFIX } from '../../../shared/runners';
import { isBrowserVisit } from './admission';
import { routingMethod } from './node-adapter';
import type { RegisteredRoute } from './router';
import { isUiPath } from './static-ui';

export interface DirectRoutes {
  /** The route a request asks for exactly, if it is one of the table's; undefined: let the app route it. */
  match(request: IncomingMessage): RegisteredRoute | undefined;
}

/**
 * A path is taken only if nothing ahead of the routes in the security middleware could claim it (the board's files,
 * the MCP and runner doors, the events socket) and it needs no decoding: then the middleware's only checks left for
 * it are Host, Origin and the token, which the direct way runs too (admission.ts). A browser's visit to `/` goes to
 * the app, which sends it to the board.
 */
export function directPathAllowed(path: string): boolean {
  return /^\/[A-Za-z0-9/_.-]*$/.test(path) && !path.includes('/.') && !isUiPath(path) && path !== MCP_PATH
    && !path.startsWith(RUNNER_PATH_PREFIX) && path !== apiRoutes.events.path;
}

export function createDirectRoutes(routes: readonly RegisteredRoute[]): DirectRoutes {
  const table = new Map<string, RegisteredRoute>();
  for (const registered of routes) {
    const { method, path } = registered.route;
    const key = `${method} ${path}`;
    // The first route registered for a method and path is the one the app would run.
    if (directPathAllowed(path) && !table.has(key)) table.set(key, registered);
  }
  return {
    match(request) {
      const target = request.url;
      if (target === undefined) return undefined;
      const registered = table.get(`${routingMethod(request)} ${target}`);
      return registered === undefined || isBrowserVisit(request, target) ? undefined : registered;
    },
  };
}
