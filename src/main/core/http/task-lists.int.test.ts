// Task lists as clients read them: `GET /` with an ETag and compression, `/api/tasks` filtered and paged.
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { desksPerTest, TEST_TOKEN, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

function get(desk: Desk, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${desk.url}${path}`, { headers: { authorization: `Bearer ${TEST_TOKEN}`, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Tasks that stay queued: each waits for a task nobody submits. */
async function submitWaiting(desk: Desk, ids: string[]): Promise<void> {
  for (const id of ids) expect((await desk.api('POST', '/', { id, prompt: `Task ${id}\n${'details '.repeat(40)}`, dependencies: ['never'] })).status).toBe(202);
}

const ids = (answer: Answer) => (JSON.parse(answer.body.toString('utf8')) as { tasks: { id: string }[] }).tasks.map((t) => t.id);

describe('GET /', () => {
  it('answers a client that holds the current list with 304 and no body, until a task changes', async () => {
    const desk = await openDesk();
    await submitWaiting(desk, ['a', 'b']);
    const first = await get(desk, '/');
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);

    const again = await get(desk, '/', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    await desk.api('DELETE', '/tasks/a');
    const changed = await get(desk, '/', { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(JSON.parse(changed.body.toString('utf8')).tasks.map((t: { status: string }) => t.status)).toEqual(['cancelled', 'queued']);
  });

  it('compresses a large list with brotli or gzip as the client accepts, and a small one not at all', async () => {
    const desk = await openDesk();
    expect((await get(desk, '/', { 'accept-encoding': 'gzip, br' })).headers['content-encoding']).toBeUndefined();

    await submitWaiting(desk, ['a', 'b', 'c', 'd', 'e', 'f']);
    const plain = await get(desk, '/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gzipped = await get(desk, '/', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'Accept-Encoding' });
    expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 2);
    const brotli = await get(desk, '/', { 'accept-encoding': 'gzip;q=0.5, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
    expect((await get(desk, '/', { 'accept-encoding': 'gzip;q=0, br;q=0' })).headers['content-encoding']).toBeUndefined();
  });
});

describe('GET /api/tasks', () => {
  it('lists only the tasks in the statuses asked for, given once, repeated or comma-separated', async () => {
    const desk = await openDesk();
    await submitWaiting(desk, ['a', 'b', 'c']);
    await desk.api('DELETE', '/tasks/b');
    expect(ids(await get(desk, '/api/tasks?status=cancelled'))).toEqual(['b']);
    expect(ids(await get(desk, '/api/tasks?status=queued'))).toEqual(['a', 'c']);
    expect(ids(await get(desk, '/api/tasks?status=queued,cancelled'))).toEqual(['a', 'b', 'c']);
    expect(ids(await get(desk, '/api/tasks?status=queued&status=cancelled&review=pending'))).toEqual(['a', 'b', 'c']);
    const refused = await get(desk, '/api/tasks?status=sleeping');
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body.toString('utf8')).error).toBe('validation_error');
  });

  it('sends only what changed since a cursor, and everything for a cursor of another run', async () => {
    const desk = await openDesk();
    await submitWaiting(desk, ['a', 'b', 'c']);
    const { cursor } = JSON.parse((await get(desk, '/api/tasks')).body.toString('utf8')) as { cursor: string };
    expect(ids(await get(desk, `/api/tasks?since=${cursor}`))).toEqual([]);
    await desk.api('DELETE', '/tasks/b');
    await submitWaiting(desk, ['d']);
    expect(ids(await get(desk, `/api/tasks?since=${cursor}`))).toEqual(['b', 'd']);
    expect(ids(await get(desk, '/api/tasks?since=0000000.1'))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('pages with limit and next, oldest or newest first, counting every match', async () => {
    const desk = await openDesk();
    await submitWaiting(desk, ['a', 'b', 'c', 'd', 'e']);
    const seen: string[] = [];
    let path = '/api/tasks?status=queued&limit=2';
    let pages = 0;
    for (;;) {
      const page = JSON.parse((await get(desk, path)).body.toString('utf8')) as { tasks: { id: string }[]; total: number; next?: number };
      pages += 1;
      expect(page.total).toBe(5);
      seen.push(...page.tasks.map((t) => t.id));
      if (page.next === undefined) break;
      path = `/api/tasks?status=queued&limit=2&after=${page.next}`;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
    const newest = JSON.parse((await get(desk, '/api/tasks?limit=2&order=desc')).body.toString('utf8')) as { tasks: { id: string }[]; next: number };
    expect(newest.tasks.map((t) => t.id)).toEqual(['e', 'd']);
    expect(ids(await get(desk, `/api/tasks?limit=2&order=desc&after=${newest.next}`))).toEqual(['c', 'b']);
    expect((await get(desk, '/api/tasks?limit=0')).status).toBe(400);
  });
});
