// Builds the OpenAPI 3.1 document of the desk's HTTP surface from the route contract in src/shared/routes.
import { z } from 'zod';
import { ALL_ROUTES } from '../../../shared/routes';
import type { ResponseSpec, RouteDef } from '../../../shared/routes/route';
import { namedSchemas } from './openapi-components';

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

const REASONS: Record<number, string> = {
  101: 'Switching to the WebSocket', 200: 'OK', 201: 'Created', 202: 'Accepted', 304: 'Not modified (the ETag matches)',
  400: 'Bad request or invalid input', 401: 'No valid token', 403: 'Host, Origin or token not allowed here', 404: 'Not found',
  409: 'Conflict', 413: 'Body too large', 415: 'Not JSON (or not multipart)', 422: 'Unusable input', 429: 'Too many requests',
  500: 'The desk failed', 502: 'A service the desk asked (a forge) failed or could not be reached',
  503: 'Not now: `disk_full` when the disk under the data dir has no room for the write (the answer says where and what to free; nothing the desk accepted earlier is lost), or a service the route needs is missing',
};

/**
 * Turns zod schemas into JSON Schema 2020-12 (what OpenAPI 3.1 uses), requests as sent and answers as sent back. The
 * named schemas (openapi-components.ts) come out as `$ref`s to `#/components/schemas/<name>`, collected once each;
 * a named schema whose request form differs from its answer form (defaults, unknown keys) is named `<name>Input` there.
 */
function schemaConverter() {
  const registry = namedSchemas();
  const defs = { input: new Map<string, Json>(), output: new Map<string, Json>() };
  const refPrefix = '#/$defs/';
  const refs: Array<{ holder: Json; id: string; io: Io }> = [];

  /** Notes every `$ref` to a named schema so it can point at the component's final name once all are known. */
  const collectRefs = (value: unknown, io: Io): void => {
    if (Array.isArray(value)) {
      for (const item of value) collectRefs(item, io);
    } else if (value !== null && typeof value === 'object') {
      const holder = value as Json;
      if (typeof holder.$ref === 'string' && holder.$ref.startsWith(refPrefix)) refs.push({ holder, id: holder.$ref.slice(refPrefix.length), io });
      for (const child of Object.values(holder)) collectRefs(child, io);
    }
  };

  return {
    convert(schema: z.ZodType, io: Io): Json {
      const { $schema: _dialect, $defs, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', metadata: registry });
      for (const [id, def] of Object.entries($defs ?? {})) {
        if (defs[io].has(id)) continue;
        defs[io].set(id, def as Json);
        collectRefs(def, io);
      }
      collectRefs(rest, io);
      return rest;
    },
    /** Points every reference at its component and returns `components.schemas`, sorted by name. */
    components(): Record<string, Json> {
      const differs = formsThatDiffer(defs);
      const nameOf = (id: string, io: Io): string => (io === 'input' && differs.has(id) ? `${id}Input` : id);
      for (const { holder, id, io } of refs) holder.$ref = `#/components/schemas/${nameOf(id, io)}`;
      const all: Record<string, Json> = {};
      for (const io of ['output', 'input'] as const) for (const [id, def] of defs[io]) all[nameOf(id, io)] ??= def;
      return Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)));
    },
  };
}

/**
 * The named schemas whose request form is not their answer form: their JSON differs, or they refer to one that
 * does (a Task holding a Turn whose input form differs is itself two forms). Judged before any `$ref` is rewritten.
 */
function formsThatDiffer(defs: Record<Io, Map<string, Json>>): Set<string> {
  const refsOf = (def: Json) => [...JSON.stringify(def).matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g)].map((match) => match[1]!);
  const differs = new Set<string>();
  for (const [id, input] of defs.input) {
    const output = defs.output.get(id);
    if (output !== undefined && JSON.stringify(output) !== JSON.stringify(input)) differs.add(id);
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const [id, input] of defs.input) {
      if (differs.has(id) || !defs.output.has(id) || !refsOf(input).some((ref) => differs.has(ref))) continue;
      differs.add(id);
      grew = true;
    }
  }
  return differs;
}

type Converter = ReturnType<typeof schemaConverter>;

/** `/tasks/:id` → `/tasks/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, '{$1}');
}

function responseOf(status: number, spec: ResponseSpec, schemas: Converter): Json {
  const description = REASONS[status] ?? String(status);
  if (spec === 'empty') return { description };
  if (spec === 'binary') return { description, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
  return { description, content: { 'application/json': { schema: schemas.convert(spec, 'output') } } };
}

function parametersOf(route: RouteDef, schemas: Converter): Json[] {
  const path = Object.entries(route.params?.shape ?? {}).map(([name, schema]) => ({
    name, in: 'path', required: true, schema: schemas.convert(schema as z.ZodType, 'input'),
  }));
  if (!route.query) return path;
  const query = schemas.convert(route.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return [...path, ...Object.entries(query.properties ?? {}).map(([name, schema]) => ({
    name, in: 'query', required: query.required?.includes(name) ?? false, schema,
  }))];
}

/**
 * An error answer: with a named error body (nearly every route), a `$ref` to one shared response per status and body,
 * declared once under components.responses; else inline.
 */
function errorResponse(status: number, errorSchema: Json, responses: Record<string, Json>): Json {
  const response = { description: REASONS[status] ?? String(status), content: { 'application/json': { schema: errorSchema } } };
  const body = typeof errorSchema.$ref === 'string' ? errorSchema.$ref.split('/').pop() : undefined;
  if (body === undefined) return response;
  const name = `${body}${status}`;
  responses[name] ??= response;
  return { $ref: `#/components/responses/${name}` };
}

function operationOf(route: RouteDef, schemas: Converter, responses: Record<string, Json>): Json {
  // A route that writes can meet a full disk: the desk then refuses it as `disk_full` (503), never a bare 500.
  const mayWrite = route.method !== 'GET';
  const errors = [...new Set([401, 403, ...(route.errors ?? []), ...(mayWrite ? [503] : []), 500])].sort((a, b) => a - b);
  const errorSchema = schemas.convert(route.error, 'output');
  const parameters = parametersOf(route, schemas);
  const bodyType = route.bodyKind === 'multipart' ? 'multipart/form-data' : 'application/json';
  return {
    tags: [route.family],
    summary: route.summary,
    // `/r/{repo}/` and `/r/{repo}` are two routes: the trailing slash names the first apart.
    operationId: `${route.method.toLowerCase()}${openApiPath(route.path).replace(/[^A-Za-z0-9]+(.)?/g, (_, c?: string) => (c ?? '').toUpperCase())}${route.path.length > 1 && route.path.endsWith('/') ? 'Slash' : ''}`,
    ...(route.auth === 'desk-or-agent' && { security: [{ deskToken: [] }, { agentToken: [] }] }),
    ...(parameters.length > 0 && { parameters }),
    ...(route.body && {
      requestBody: { required: route.bodyKind !== 'optional-json', content: { [bodyType]: { schema: schemas.convert(route.body, 'input') } } },
    }),
    responses: {
      ...Object.fromEntries(Object.entries(route.responses).map(([status, spec]) => [status, responseOf(Number(status), spec, schemas)])),
      ...Object.fromEntries(errors.map((status) => [String(status), errorResponse(status, errorSchema, responses)])),
    },
  };
}

/** The whole document; deterministic, so the committed docs/openapi.json can be compared with a fresh one. */
export function buildOpenApiDocument(version: string, routes: readonly RouteDef[] = ALL_ROUTES): Json {
  const paths: Record<string, Json> = {};
  const schemas = schemaConverter();
  const responses: Record<string, Json> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route, schemas, responses) };
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
      schemas: schemas.components(),
      responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
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
