// How an HTTP route is declared once: method, path, parameters, query, body, answers and error shape, as zod.
// The server registers its handlers by these declarations, the board's client calls them, docs/openapi.json is made from them.
import { z } from 'zod';
import { ApiErrorBody } from '../api-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Which tokens a route accepts: the desk token only (the default), or an agent token too. */
export type RouteAuth = 'desk' | 'desk-or-agent';

/** What a route reads as its body: JSON (optional: an absent body reads as `{}`), or a multipart upload. */
export type BodyKind = 'json' | 'optional-json' | 'multipart';

/** What a status answers with: a zod schema of the JSON body, or `'binary'` for a file download. */
export type ResponseSpec = z.ZodType | 'binary' | 'empty';

export interface RouteDef {
  readonly method: HttpMethod;
  /** `/tasks/:id`: a parameter is one path segment, percent-decoded. */
  readonly path: string;
  readonly summary: string;
  /** The OpenAPI tag: the protocol family the route belongs to. */
  readonly family: 'Agent Assignment' | 'Board API' | 'Agent Protocol' | 'Governance';
  readonly auth?: RouteAuth;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly bodyKind?: BodyKind;
  /** Every success status the route answers, with its body. */
  readonly responses: Readonly<Record<number, ResponseSpec>>;
  /** The body of every 4xx/5xx answer. */
  readonly error: z.ZodType;
  /** The error statuses worth naming in the docs besides 401/403. */
  readonly errors?: readonly number[];
}

/** Declares a route; the literal types (path, schemas) are kept for the server's and the client's typing. */
export function defineRoute<const R extends RouteDef>(route: R): R {
  return route;
}

/** The parsed path parameters of a route. */
export type ParamsOf<R extends RouteDef> = R['params'] extends z.ZodObject ? z.output<R['params']> : Record<string, string>;
/** What a client sends as the query (before coercion). */
export type QueryInputOf<R extends RouteDef> = R['query'] extends z.ZodType ? z.input<R['query']> : never;
/** The query as the server reads it (after coercion and defaults). */
export type QueryOf<R extends RouteDef> = R['query'] extends z.ZodType ? z.output<R['query']> : never;
/** What a client sends as the body. */
export type BodyInputOf<R extends RouteDef> = R['body'] extends z.ZodType ? z.input<R['body']> : never;
/** The body as the server reads it. */
export type BodyOf<R extends RouteDef> = R['body'] extends z.ZodType ? z.output<R['body']> : never;

type SuccessStatus<R extends RouteDef> = Extract<keyof R['responses'], number>;
type JsonOf<S> = S extends z.ZodType ? z.output<S> : never;
/** The JSON body of any success answer of a route. */
export type ResponseOf<R extends RouteDef> = { [K in SuccessStatus<R>]: JsonOf<R['responses'][K]> }[SuccessStatus<R>];

/** `/tasks/:id` with `{ id: 'a b' }` → `/tasks/a%20b`. */
export function pathOf(route: RouteDef, params: Record<string, string> = {}): string {
  return route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.path} needs the path parameter "${name}".`);
    return encodeURIComponent(value);
  });
}

/** A path parameter: any one non-empty segment. */
export const Segment = z.string().min(1);

/** The path parameter of a route on one thing (a task, an agent, a request): `/…/:id`. */
export const ById = z.object({ id: Segment });

/** What each route of a family says for itself; the family, its error body and the tokens it takes come from `routesOf`. */
export type RouteFields = Omit<RouteDef, 'method' | 'path' | 'summary' | 'family' | 'error' | 'auth'>;

/**
 * The routes of one family, declared `get(path, summary, fields)` (likewise `post`, `put`, `delete`): the family, the
 * body of its errors (`ApiErrorBody` unless given) and the tokens it takes are said once for all of them.
 */
export function routesOf(family: RouteDef['family'], shared: { error?: z.ZodType; auth?: RouteAuth } = {}) {
  const { error = ApiErrorBody, auth } = shared;
  const declare = <const M extends HttpMethod>(method: M) =>
    <const P extends string, const F extends RouteFields>(path: P, summary: string, fields: F) =>
      defineRoute({ method, path, summary, family, error, ...(auth !== undefined && { auth }), ...fields });
  return { get: declare('GET'), post: declare('POST'), put: declare('PUT'), delete: declare('DELETE') };
}
