import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiErrorBody } from '../../../shared/api-error';
import { MCP_PATH } from '../../../shared/mcp';
import { apiRoutes } from '../../../shared/routes';
import { defineRoute } from '../../../shared/routes/route';
import { createDirectRoutes, directPathAllowed } from './direct-routes';
import type { RegisteredRoute } from './router';

const registered = (method: 'GET' | 'POST', path: string): RegisteredRoute => ({
  route: defineRoute({ method, path, family: 'Board API', summary: path, responses: { 200: z.unknown() }, error: ApiErrorBody }),
  handler: async () => [200, { path }],
});

const asked = (method: string, url: string, headers: Record<string, string> = {}) => ({ method, url, headers }) as unknown as IncomingMessage;

describe('the direct route table', () => {
  const submit = registered('POST', '/');
  const list = registered('GET', '/');
  const detail = registered('GET', '/tasks/:id');
  const table = createDirectRoutes([submit, list, detail, registered('POST', '/'), registered('GET', '/api/tasks')]);

  it('takes a parameterless path asked for exactly, by method (HEAD as GET), the first registration winning', () => {
    expect(table.match(asked('POST', '/'))).toBe(submit);
    expect(table.match(asked('GET', '/'))).toBe(list);
    expect(table.match(asked('HEAD', '/'))).toBe(list);
    expect(table.match(asked('GET', '/api/tasks'))?.route.path).toBe('/api/tasks');
  });

  it('leaves every other spelling, method and path to the app', () => {
    for (const [method, url] of [
      ['GET', '/?x=1'], ['GET', '/api/tasks/'], ['GET', '/api//tasks'], ['GET', '/API/tasks'], ['GET', '/api/t%61sks'],
      ['GET', '/tasks/a'], ['PUT', '/'], ['OPTIONS', '/'], ['GET', '//'], ['GET', 'http://127.0.0.1/'],
    ] as const) {
      expect(table.match(asked(method, url)), `${method} ${url}`).toBeUndefined();
    }
  });

  it('leaves a browser visit to / to the app, which sends it to the board', () => {
    expect(table.match(asked('GET', '/', { accept: 'text/html,application/xhtml+xml' }))).toBeUndefined();
    expect(table.match(asked('GET', '/', { accept: 'text/html', authorization: 'Bearer x' }))).toBe(list);
  });

  it('never takes a path something ahead of the routes may claim, or one that needs decoding', () => {
    for (const path of ['/ui', '/ui/', '/ui/index.html', MCP_PATH, '/runner/t1/git', apiRoutes.events.path, '/a%2fb', '/a/../b', '/a/.hidden', '/:id']) {
      expect(directPathAllowed(path), path).toBe(false);
    }
    for (const path of ['/', '/api/tasks', '/ap/v1/agent/tasks', '/agent/tasks', '/api/settings']) expect(directPathAllowed(path), path).toBe(true);
    const ui = registered('GET', '/ui');
    expect(createDirectRoutes([ui]).match(asked('GET', '/ui'))).toBeUndefined();
  });
});
