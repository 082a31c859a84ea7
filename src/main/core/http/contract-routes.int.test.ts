// The server is built from the route contract: every declared route is there, and behind the same security checks.
import { describe, expect, it } from 'vitest';
import { ALL_ROUTES } from '../../../shared/routes';
import { deskPerFile, TEST_TOKEN } from '../test-support/desk-harness';
import { openApiText } from './openapi-document';

const currentDesk = deskPerFile();
const routes = ALL_ROUTES.map((route) => [`${route.method} ${route.path}`, route.method, route.path.replace(/:\w+/g, 'x')] as const);

describe('every route of the contract', () => {
  it.each(routes)('refuses %s without a token (401)', async (_name, method, path) => {
    const answer = await currentDesk().raw(method, path);
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe('unauthorized');
  });

  it.each(routes)('refuses %s from a foreign Host (403)', async (_name, method, path) => {
    const answer = await currentDesk().api(method, path, undefined, { host: 'evil.example' });
    expect(answer.status).toBe(403);
  });

  it.each(routes)('refuses %s from a foreign Origin (403)', async (_name, method, path) => {
    const answer = await currentDesk().api(method, path, undefined, { origin: 'https://evil.example' });
    expect(answer.status).toBe(403);
  });

  it.each(routes)('is served: %s is neither 404 for its path nor 405 for its method', async (_name, method, path) => {
    const answer = await currentDesk().api(method, path);
    expect(answer.status).not.toBe(405);
    if (answer.status === 404) expect(answer.json.message).not.toMatch(/^Nothing at /);
  });
});

describe('GET /api/openapi.json', () => {
  it('serves the generated OpenAPI document with the token', async () => {
    const answer = await currentDesk().api('GET', '/api/openapi.json');
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.json, null, 2) + '\n').toBe(openApiText());
  });

  it('refuses it without the token', async () => {
    expect((await currentDesk().raw('GET', '/api/openapi.json')).status).toBe(401);
  });

  it(`keeps it closed to a wrong token`, async () => {
    expect((await currentDesk().raw('GET', '/api/openapi.json', { headers: { authorization: `Bearer ${TEST_TOKEN}x` } })).status).toBe(401);
  });
});
