// Builds the OpenAPI 3.1 document of the desk's HTTP surface from the route contract in src/shared/routes.
import { z } from 'zod';
import { ALL_ROUTES } from '../../../shared/routes';
import type { ResponseSpec, RouteDef } from '../../../shared/routes/route';

type Json = Record<string, unknown>;

const REASONS: Record<number, string> = {
  101: 'Switching to the WebSocket', 200: 'OK', 201: 'Created', 202: 'Accepted', 304: 'Not modified (the ETag matches)',
  400: 'Bad request or invalid input', 401: 'No valid token', 403: 'Host, Origin or token not allowed here', 404: 'Not found',
  409: 'Conflict', 413: 'Body too large', 415: 'Not JSON (or not multipart)', 422: 'Unusable input', 429: 'Too many requests',
  500: 'The desk failed',
};

/** A zod schema as JSON Schema 2020-12 (what OpenAPI 3.1 uses); requests are described as sent, answers as sent back. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
  return rest;
}

/** `/tasks/:id` → `/tasks/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, '{$1}');
}

function responseOf(status: number, spec: ResponseSpec): Json {
  const description = REASONS[status] ?? String(status);
  if (spec === 'empty') return { description };
  if (spec === 'binary') return { description, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
  return { description, content: { 'application/json': { schema: jsonSchema(spec, 'output') } } };
}

function parametersOf(route: RouteDef): Json[] {
  const path = Object.entries(route.params?.shape ?? {}).map(([name, schema]) => ({
    name, in: 'path', required: true, schema: jsonSchema(schema as z.ZodType, 'input'),
  }));
  if (!route.query) return path;
  const query = jsonSchema(route.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return [...path, ...Object.entries(query.properties ?? {}).map(([name, schema]) => ({
    name, in: 'query', required: query.required?.includes(name) ?? false, schema,
  }))];
}

function operationOf(route: RouteDef): Json {
  const errors = [...new Set([401, 403, ...(route.errors ?? []), 500])].sort((a, b) => a - b);
  const error = { content: { 'application/json': { schema: jsonSchema(route.error, 'output') } } };
  const parameters = parametersOf(route);
  const bodyType = route.bodyKind === 'multipart' ? 'multipart/form-data' : 'application/json';
  return {
    tags: [route.family],
    summary: route.summary,
    // `/r/{repo}/` and `/r/{repo}` are two routes: the trailing slash names the first apart.
    operationId: `${route.method.toLowerCase()}${openApiPath(route.path).replace(/[^A-Za-z0-9]+(.)?/g, (_, c?: string) => (c ?? '').toUpperCase())}${route.path.length > 1 && route.path.endsWith('/') ? 'Slash' : ''}`,
    ...(route.auth === 'desk-or-agent' && { security: [{ deskToken: [] }, { agentToken: [] }] }),
    ...(parameters.length > 0 && { parameters }),
    ...(route.body && {
      requestBody: { required: route.bodyKind !== 'optional-json', content: { [bodyType]: { schema: jsonSchema(route.body, 'input') } } },
    }),
    responses: {
      ...Object.fromEntries(Object.entries(route.responses).map(([status, spec]) => [status, responseOf(Number(status), spec)])),
      ...Object.fromEntries(errors.map((status) => [String(status), { description: REASONS[status] ?? String(status), ...error }])),
    },
  };
}

/** The whole document; deterministic, so the committed docs/openapi.json can be compared with a fresh one. */
export function buildOpenApiDocument(version: string, routes: readonly RouteDef[] = ALL_ROUTES): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Assignment Desk',
      version,
      description: 'One HTTP server on localhost: the Agent Assignment protocol, the board API, Agent Protocol v1 and governance. '
        + 'Every error answers JSON: `{error, message}` (Agent Protocol: `{message}`). Generated from src/shared/routes; do not edit.',
    },
    servers: [{ url: 'http://127.0.0.1:1337' }],
    tags: [...new Set(routes.map((route) => route.family))].map((name) => ({ name })),
    security: [{ deskToken: [] }],
    components: {
      securitySchemes: {
        deskToken: { type: 'http', scheme: 'bearer', description: "The desk's token; opens every route." },
        agentToken: { type: 'http', scheme: 'bearer', description: 'A token issued to one agent; opens /agent/* only.' },
      },
    },
    paths,
  };
}

/** The version of the contract (not of the app): bump it when a route changes in a way clients notice. */
export const CONTRACT_VERSION = '1.0.0';

/** The document as docs/openapi.json holds it. */
export function openApiText(): string {
  return `${JSON.stringify(buildOpenApiDocument(CONTRACT_VERSION), null, 2)}\n`;
}
