// A request answered from the direct table (direct-routes.ts) is let in, refused and answered exactly as the Hono app
// answers the same request on a path with a parameter: the attacker's requests below get the same answer both ways.
import type { OutgoingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiErrorBody } from '../../../shared/api-error';
import { defineRoute } from '../../../shared/routes/route';
import { rawRequest, type RawResponse } from '../test-support/desk-harness';
import { sendRaw, statusOf } from '../test-support/raw-socket';
import { createRouter } from './router';
import { createHttpHost, type HttpHost } from './server';
import { createStaticUi } from './static-ui';

const TOKEN = 'direct-routes-desk-token';
const AGENT_TOKEN = 'direct-routes-agent-token';
const PROMPT_PAD = 'https://prompt-pad.example';

let host: HttpHost;
let base: string;
let port: number;
const logged: unknown[] = [];

beforeAll(async () => {
  const route = (method: 'GET' | 'POST', path: string, auth?: 'desk-or-agent') =>
    defineRoute({ method, path, family: 'Board API', summary: path, ...(auth && { auth }), body: method === 'POST' ? z.object({ n: z.number() }) : undefined, responses: { 200: z.unknown() }, error: ApiErrorBody });
  const router = createRouter();
  // Each handler twice: at a path the direct table takes, and at one with a parameter, which only the app routes.
  for (const [direct, routed] of [['/same', '/same/:x'], ['/agent-too', '/agent-too/:x'], ['/boom', '/boom/:x']] as const) {
    for (const path of [direct, routed]) {
      if (direct === '/boom') router.on(route('GET', path), async () => { throw new Error('the service broke'); });
      else router.on(route('GET', path, direct === '/agent-too' ? 'desk-or-agent' : undefined), async ({ principal }) => [200, { principal }]);
    }
  }
  router.on(route('POST', '/same'), async ({ body }) => [200, await body()]).on(route('POST', '/same/:x'), async ({ body }) => [200, await body()]);
  host = createHttpHost({
    router,
    security: { token: TOKEN, allowedHosts: [], allowedOrigins: [PROMPT_PAD] },
    eventsSocket: { accept: (_request, socket) => socket.destroy(), close: () => {} },
    log: (error) => logged.push(error),
    resolveAgentToken: (token) => (token === AGENT_TOKEN ? 'agent-7' : undefined),
    staticUi: createStaticUi(undefined),
  });
  port = (await host.listen(0, '127.0.0.1')).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(() => host.close());

const desk = { authorization: `Bearer ${TOKEN}` };

/** What a client sees of an answer, to compare the two ways in; a message naming the route names it as `path`. */
const seen = (answer: RawResponse, path: string) => ({
  status: answer.status,
  text: answer.text.replaceAll(`${path}/:x`, path),
  cors: answer.headers['access-control-allow-origin'],
  challenge: answer.headers['www-authenticate'],
  type: answer.headers['content-type'],
  cache: answer.headers['cache-control'],
  sniff: answer.headers['x-content-type-options'],
});

async function bothWays(method: string, direct: string, headers: OutgoingHttpHeaders, body?: string) {
  const [straight, routed] = await Promise.all([rawRequest(base, method, direct, headers, body), rawRequest(base, method, `${direct}/x`, headers, body)]);
  expect(seen(straight, direct)).toEqual(seen(routed, direct));
  return straight;
}

describe('a request the direct table answers', () => {
  it('is refused for a foreign Host (DNS rebinding) and a foreign Origin, before its token is looked at', async () => {
    expect((await bothWays('GET', '/same', { ...desk, host: 'attacker.example' })).status).toBe(403);
    expect((await bothWays('GET', '/same', { ...desk, host: 'attacker.example:80' })).status).toBe(403);
    const foreign = await bothWays('GET', '/same', { ...desk, origin: 'https://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('is refused without the token, with a wrong one, and with the token in the wrong scheme', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, `Bearer  ${TOKEN.slice(1)}`, TOKEN]) {
      const answer = await bothWays('GET', '/same', authorization === undefined ? {} : { authorization });
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="Assignment Desk"');
    }
  });

  it("opens a desk route to the desk's token only, and an agent route to an agent's token too", async () => {
    expect((await bothWays('GET', '/same', desk)).json).toEqual({ principal: { kind: 'desk' } });
    expect((await bothWays('GET', '/same', { authorization: `Bearer ${AGENT_TOKEN}` })).status).toBe(403);
    expect((await bothWays('GET', '/agent-too', { authorization: `Bearer ${AGENT_TOKEN}` })).json).toEqual({ principal: { kind: 'agent', agentId: 'agent-7' } });
  });

  it("carries an allowed Origin's CORS headers on its answer and on its refusals", async () => {
    const origin = { origin: PROMPT_PAD };
    expect((await bothWays('GET', '/same', { ...desk, ...origin })).headers['access-control-allow-origin']).toBe(PROMPT_PAD);
    expect((await bothWays('GET', '/same', origin)).headers['access-control-allow-origin']).toBe(PROMPT_PAD);
    expect((await bothWays('POST', '/same', { ...desk, ...origin, 'content-type': 'application/json' }, '{"n":"one"}')).status).toBe(400);
  });

  it('reads and checks its body as the contract says', async () => {
    const json = { ...desk, 'content-type': 'application/json' };
    expect((await bothWays('POST', '/same', json, '{"n":1}')).json).toEqual({ n: 1 });
    expect((await bothWays('POST', '/same', json, '{"n":')).status).toBe(400);
    expect((await bothWays('POST', '/same', { ...desk, 'content-type': 'text/plain' }, '{"n":1}')).status).toBe(415);
  });

  it('answers a failing handler with 500 JSON without internals, and logs why', async () => {
    logged.length = 0;
    const answer = await bothWays('GET', '/boom', desk);
    expect(answer.status).toBe(500);
    expect(answer.text).not.toContain('the service broke');
    expect(logged).toHaveLength(2);
  });

  it('answers HEAD as GET without a body', async () => {
    const answer = await bothWays('HEAD', '/same', desk);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
  });

  it('is left to the app when spelled another way, so nothing gets in that way either', async () => {
    // Sent as raw bytes: a client library would tidy `/./same` into `/same` before it left.
    for (const path of ['/same?x=1', '/s%61me', '/same/', '/./same', '/same/../same', '//same', '/same#x']) {
      expect(statusOf(await sendRaw(port, [`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`])), path).toBe(401);
    }
    expect((await rawRequest(base, 'GET', '/same?x=1', desk)).json).toEqual({ principal: { kind: 'desk' } });
    const preflight = await rawRequest(base, 'OPTIONS', '/same', { origin: PROMPT_PAD, 'access-control-request-method': 'POST' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(PROMPT_PAD);
  });
});
