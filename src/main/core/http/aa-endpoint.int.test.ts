// The Agent Assignment endpoint as a client sees it: security on every route, error shapes, submission and cancel.
import { describe, expect, it } from 'vitest';
import { deskPerFile, TEST_TOKEN } from '../test-support/desk-harness';

const currentDesk = deskPerFile();

describe('security', () => {
  it('refuses a request without the bearer token, saying how to authenticate', async () => {
    const response = await currentDesk().raw('GET', '/');
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(response.json).toMatchObject({ error: 'unauthorized' });
  });

  it('refuses a wrong token on every route', async () => {
    for (const [method, path] of [['GET', '/'], ['POST', '/'], ['GET', '/tasks/x'], ['DELETE', '/x'], ['GET', '/api/tasks/x/events']] as const) {
      const response = await currentDesk().raw(method, path, { headers: { authorization: 'Bearer not-the-token' } });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });

  it('refuses a Host that is not loopback, even with the right token', async () => {
    const response = await currentDesk().api('GET', '/', undefined, { host: 'evil.example:1337' });
    expect(response.status).toBe(403);
    expect(response.json.error).toBe('forbidden');
  });

  it('accepts *.localhost and loopback Host names', async () => {
    for (const host of ['agent-assignment-server.localhost:3000', 'localhost', '127.0.0.1:1', '[::1]:8080']) {
      expect((await currentDesk().api('GET', '/', undefined, { host })).status, host).toBe(200);
    }
  });

  it('answers a CORS preflight from Prompt Pad with the private-network header', async () => {
    const response = await currentDesk().raw('OPTIONS', '/', {
      headers: {
        origin: 'https://prompt-pad.danmercer.net',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
        'access-control-request-private-network': 'true',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('https://prompt-pad.danmercer.net');
    expect(response.headers['access-control-allow-headers']).toMatch(/Authorization/);
    expect(response.headers['access-control-allow-methods']).toMatch(/POST/);
    expect(response.headers['access-control-allow-private-network']).toBe('true');
  });

  it('refuses a preflight from an origin that is not configured', async () => {
    const response = await currentDesk().raw('OPTIONS', '/', { headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(response.status).toBe(403);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('adds CORS headers to an allowed origin\'s real request', async () => {
    const response = await currentDesk().api('GET', '/', undefined, { origin: 'https://prompt-pad.danmercer.net' });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('https://prompt-pad.danmercer.net');
  });
});

describe('request errors', () => {
  it('answers malformed JSON with 400', async () => {
    const response = await currentDesk().raw('POST', '/', { headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' }, body: '{"id": "a",' });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: 'bad_request' });
    expect(response.json.message).toMatch(/not valid JSON/);
  });

  it('names the field that breaks the schema', async () => {
    const missingPrompt = await currentDesk().api('POST', '/', { id: 'a' });
    expect(missingPrompt.status).toBe(400);
    expect(missingPrompt.json).toMatchObject({ error: 'validation_error' });
    expect(missingPrompt.json.message).toMatch(/^prompt: /);
    const badDependency = await currentDesk().api('POST', '/', { id: 'a', prompt: 'p', dependencies: ['ok', 5] });
    expect(badDependency.json.message).toMatch(/^dependencies\.1: /);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const response = await currentDesk().raw('POST', '/', { headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'text/plain' }, body: 'hello' });
    expect(response.status).toBe(415);
    expect(response.json.error).toBe('unsupported_media_type');
  });

  it('refuses a body over 1 MiB with 413 and lists nothing new', async () => {
    const body = JSON.stringify({ id: 'huge', prompt: 'x'.repeat(1024 * 1024 + 10) });
    const response = await currentDesk().raw('POST', '/', { headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' }, body });
    expect(response.status).toBe(413);
    expect(response.json.error).toBe('payload_too_large');
    const list = await currentDesk().api('GET', '/');
    expect(list.json.tasks.map((t: { id: string }) => t.id)).not.toContain('huge');
  });

  it('answers an unknown route with 404 and a wrong method with 405 and Allow', async () => {
    expect((await currentDesk().api('GET', '/no/such/route')).status).toBe(404);
    const wrong = await currentDesk().api('PUT', '/');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toContain('POST');
    expect(wrong.json.error).toBe('method_not_allowed');
  });

  it('answers 404 for cancelling or reading an unknown task', async () => {
    expect((await currentDesk().api('DELETE', '/nobody')).status).toBe(404);
    expect((await currentDesk().api('DELETE', '/tasks/nobody')).status).toBe(404);
    expect((await currentDesk().api('DELETE', '/', { id: 'nobody' })).status).toBe(404);
    expect((await currentDesk().api('GET', '/tasks/nobody')).json).toMatchObject({ error: 'not_found' });
  });
});

describe('submitting', () => {
  it('accepts a task with 202 and lists it with its submission time', async () => {
    const response = await currentDesk().api('POST', '/', { id: 'listed', prompt: 'say hello', dependencies: ['later'] });
    expect(response.status).toBe(202);
    expect(response.json).toMatchObject({ id: 'listed', status: 'queued' });
    const list = await currentDesk().api('GET', '/', undefined, { accept: 'application/json' });
    expect(list.json.serverName).toBe('Test desk');
    const task = list.json.tasks.find((t: { id: string }) => t.id === 'listed');
    expect(task).toMatchObject({ id: 'listed', status: 'queued' });
    expect(new Date(task.submittedAt).toISOString()).toBe(task.submittedAt);
  });

  it('shows a waiting task in full, with the dependency it still waits for', async () => {
    const detail = await currentDesk().api('GET', '/tasks/listed');
    expect(detail.json).toMatchObject({
      id: 'listed', prompt: 'say hello', dependencies: ['later'], status: 'queued', baseBranch: 'main',
      unmetDependencies: [{ id: 'later', status: 'unknown', blocking: false }],
    });
  });

  it('refuses with 409 a dependency that would close a cycle, naming it', async () => {
    await currentDesk().api('POST', '/', { id: 'cycle-a', prompt: 'a', dependencies: ['cycle-b'] });
    await currentDesk().api('POST', '/', { id: 'cycle-b', prompt: 'b', dependencies: ['cycle-c'] });
    const response = await currentDesk().api('POST', '/', { id: 'cycle-c', prompt: 'c', dependencies: ['cycle-a'] });
    expect(response.status).toBe(409);
    expect(response.json.error).toBe('conflict');
    expect(response.json.message).toContain('cycle-c → cycle-a → cycle-b → cycle-c');
    expect(response.json.details.cycle).toEqual(['cycle-c', 'cycle-a', 'cycle-b', 'cycle-c']);
    expect((await currentDesk().api('GET', '/tasks/cycle-c')).status).toBe(404);
  });

  it('cancels a queued task through each DELETE form', async () => {
    for (const [id, method, path, body] of [['d1', 'DELETE', '/d1', undefined], ['d2', 'DELETE', '/tasks/d2', undefined], ['d3', 'DELETE', '/', { id: 'd3' }]] as const) {
      await currentDesk().api('POST', '/', { id, prompt: 'wait', dependencies: ['never'] });
      const response = await currentDesk().api(method, path, body);
      expect(response.status, path).toBe(200);
      expect(response.json).toMatchObject({ id, status: 'cancelled' });
    }
  });

  it('refuses an agent that is not configured', async () => {
    const response = await currentDesk().api('POST', '/', { id: 'x', prompt: 'p', agent: 'nope' });
    expect(response.status).toBe(400);
    expect(response.json.message).toMatch(/^agent: /);
  });
});
