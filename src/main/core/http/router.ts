// A small method + path router: 404 for unknown paths, 405 with `Allow` for a known path and wrong method.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './http-error';

/** Who is calling: the desk's own token holder, or an agent with a token of its own. */
export type Principal = { kind: 'desk' } | { kind: 'agent'; agentId: string };

/** Which tokens a route accepts: the desk token only (the default), or an agent token too. */
export type RouteAuth = 'desk' | 'desk-or-agent';

export interface RouteRequest {
  request: IncomingMessage;
  response: ServerResponse;
  params: Record<string, string>;
  url: URL;
  principal: Principal;
}

/** A handler returns `[status, body]` to answer with JSON, or undefined when it answered itself. */
export type RouteHandler = (request: RouteRequest) => Promise<[number, unknown] | undefined>;

interface Route { method: string; pattern: RegExp; names: string[]; handler: RouteHandler; auth: RouteAuth }

export interface Router {
  on(method: string, path: string, handler: RouteHandler, options?: { auth?: RouteAuth }): Router;
  /** The handler, its decoded path parameters and the tokens it accepts; throws 404 or 405. */
  match(method: string, pathname: string): { handler: RouteHandler; params: Record<string, string>; auth: RouteAuth };
}

/** Paths look like `/tasks/:id`; a parameter is one path segment, percent-decoded. */
export function createRouter(): Router {
  const routes: Route[] = [];
  const router: Router = {
    on(method, path, handler, options = {}) {
      const names: string[] = [];
      const source = path.split('/').map((segment) => {
        if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(segment.slice(1));
        return '([^/]+)';
      }).join('/');
      routes.push({ method, pattern: new RegExp(`^${source}$`), names, handler, auth: options.auth ?? 'desk' });
      return router;
    },
    match(method, pathname) {
      const allowed = new Set<string>();
      for (const route of routes) {
        const found = route.pattern.exec(pathname);
        if (!found) continue;
        if (route.method !== method) {
          allowed.add(route.method);
          continue;
        }
        const params: Record<string, string> = {};
        route.names.forEach((name, index) => { params[name] = decodeSegment(found[index + 1] as string); });
        return { handler: route.handler, params, auth: route.auth };
      }
      if (allowed.size > 0) {
        const allow = [...allowed, 'OPTIONS'].join(', ');
        throw new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${pathname}; use ${allow}.`, undefined, { Allow: allow });
      }
      throw new HttpError(404, 'not_found', `Nothing at ${pathname}.`);
    },
  };
  return router;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'bad_request', `Malformed percent-encoding in "${segment}".`);
  }
}
