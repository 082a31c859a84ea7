// docs/openapi.json is generated from the route contract: it must be current, and it must be valid OpenAPI 3.1.
import { compileErrors, validate } from '@readme/openapi-parser';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_ROUTES } from '../../../shared/routes';
import { buildOpenApiDocument, openApiPath, openApiText } from './openapi-document';

const committed = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url));

describe('docs/openapi.json', () => {
  it('matches what the route contract generates (run npm run openapi after changing a route)', () => {
    expect(readFileSync(committed, 'utf8')).toBe(openApiText());
  });

  it('validates as OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(buildOpenApiDocument('test')) as never);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.specification).toBe('OpenAPI');
  });

  it('describes every route of the contract once', () => {
    const paths = buildOpenApiDocument('test').paths as Record<string, Record<string, unknown>>;
    const operations = Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
    expect(operations.sort()).toEqual(ALL_ROUTES.map((route) => `${route.method.toLowerCase()} ${openApiPath(route.path)}`).sort());
  });

  it('names the shared schemas once under components and refers to them, so a client generator gets one Task type', () => {
    const text = openApiText();
    const document = JSON.parse(text) as { components: { schemas: Record<string, unknown>; responses: Record<string, unknown> } };
    const refs = [...text.matchAll(/"\$ref": "#\/components\/(schemas|responses)\/([^"]+)"/g)].map((match) => [match[1]!, match[2]!] as ['schemas' | 'responses', string]);
    const used = new Set(refs.filter(([kind]) => kind === 'schemas').map(([, name]) => name));

    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['Task', 'TaskSummary', 'Question', 'Event', 'Error', 'Policy']));
    expect([...used].filter((name) => name in document.components.schemas).length).toBeGreaterThanOrEqual(10);
    for (const [kind, name] of refs) expect(document.components[kind], `${kind}/${name}`).toHaveProperty([name]);
    expect(text).not.toContain('$defs');
  });

  it('tells a client that every route that writes may be refused with 503 disk_full when the disk is full', () => {
    const document = buildOpenApiDocument('test') as { paths: Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>; components: { responses: Record<string, { description: string }> } };
    const writes = Object.values(document.paths).flatMap((methods) => Object.entries(methods).filter(([method]) => method !== 'get').map(([, operation]) => operation));
    expect(writes.length).toBeGreaterThan(10);
    for (const operation of writes) {
      const refused = operation.responses['503'];
      expect(refused?.$ref).toBeDefined();
      expect(document.components.responses[refused!.$ref!.split('/').pop()!]?.description).toContain('disk_full');
    }
  });

  // The guard is against schemas written out again at every use (1.2 MB before components); the routes of review
  // feedback, attention, "Always allow", checks and attempts grew the named document from 216 KB to about 290 KB.
  it('stays small enough to read and generate from (at most 300 KB)', () => {
    expect(Buffer.byteLength(openApiText())).toBeLessThanOrEqual(300 * 1024);
  });
});
