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
});
