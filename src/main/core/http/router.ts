// Handlers registered by the route contract (src/shared/routes): each gets its typed path parameters, and reads its
// query and body through the contract's schemas. The HTTP host mounts them on its Hono app.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BodyOf, ParamsOf, QueryOf, ResponseOf, RouteAuth, RouteDef } from '../../../shared/routes/route';
import type { PreparedAnswer } from './list-answer';
import { parseBody, readJsonBody } from './request-body';

export type { RouteAuth };

/** Who is calling: the desk's own token holder, or an agent with a token of its own. */
export type Principal = { kind: 'desk' } | { kind: 'agent'; agentId: string };

export interface RouteRequest<R extends RouteDef = RouteDef> {
  request: IncomingMessage;
  response: ServerResponse;
  /** Decoded path parameters, named as in the contract's path. */
  params: ParamsOf<R>;
  principal: Principal;
  /** The query string parsed by the contract's schema; a wrong value answers 400 naming the field. */
  query(): QueryOf<R>;
  /** The body read (JSON only, size-limited) and parsed by the contract's schema; read only when asked for. */
  body(): Promise<BodyOf<R>>;
}

/** `[status, body]` to answer with JSON (or a prepared list), or undefined when the handler answered itself. */
export type RouteAnswer<R extends RouteDef = RouteDef> = [number, ResponseOf<R> | PreparedAnswer] | undefined;
export type RouteHandler<R extends RouteDef = RouteDef> = (request: RouteRequest<R>) => Promise<RouteAnswer<R>>;

export interface RegisteredRoute { route: RouteDef; handler: RouteHandler }

export interface Router {
  /** Implements a route of the contract. */
  on<R extends RouteDef>(route: R, handler: RouteHandler<R>): Router;
  readonly routes: readonly RegisteredRoute[];
  /** The handler of a route, for tests that call it directly. */
  handlerOf(route: RouteDef): RouteHandler | undefined;
}

export function createRouter(): Router {
  const routes: RegisteredRoute[] = [];
  const router: Router = {
    on(route, handler) {
      // The contract ties a handler's types to its route; the list holds them all, so it forgets which is which.
      routes.push({ route, handler: handler as unknown as RouteHandler });
      return router;
    },
    routes,
    handlerOf: (route) => routes.find((registered) => registered.route === route)?.handler,
  };
  return router;
}

/** The query string as an object for a zod schema: a parameter given more than once becomes a list. */
export function queryObject(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] as string : values;
  }
  return query;
}

/** A route's query, parsed by its schema (`{}` for a route that declares none). */
export function readQuery(route: RouteDef, query: () => Record<string, string | string[]>): unknown {
  return route.query ? parseBody(route.query, query()) : {};
}

/** A route's body, read as its contract says and parsed by its schema. Multipart uploads are read by their handler. */
export async function readBody(route: RouteDef, request: IncomingMessage): Promise<unknown> {
  if (!route.body || route.bodyKind === 'multipart') return undefined;
  const length = request.headers['content-length'];
  const absent = request.headers['transfer-encoding'] === undefined && (length === undefined || Number(length) === 0);
  return parseBody(route.body, route.bodyKind === 'optional-json' && absent ? {} : await readJsonBody(request));
}
