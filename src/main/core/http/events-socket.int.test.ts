// The board's live feed: `/api/events` streams every recorded event in order, to token holders only.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { EventEnvelope, EventsMessage } from '../../../shared/events';
import { deskPerFile, TEST_TOKEN } from '../test-support/desk-harness';

const currentDesk = deskPerFile();

const socketUrl = (query = '') => `${currentDesk().url.replace('http', 'ws')}/api/events${query}`;

/** Collects events from a socket until `done` says so. */
function collect(socket: WebSocket, done: (events: EventEnvelope[]) => boolean): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  return new Promise((resolve, reject) => {
    socket.on('message', (data) => {
      events.push(...(JSON.parse(String(data)) as EventsMessage).events);
      if (done(events)) resolve(events);
    });
    socket.on('error', reject);
  });
}

const opened = (socket: WebSocket) => new Promise<void>((resolve, reject) => { socket.once('open', () => resolve()); socket.once('error', reject); });
const refusedWith = (socket: WebSocket) => new Promise<number>((resolve) => socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)));

describe('the events socket', () => {
  it('streams a task\'s status changes and agent updates live, in order', async () => {
    const socket = new WebSocket(socketUrl(), { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
    await opened(socket);
    const arrived = collect(socket, (events) => events.some((e) => e.event.type === 'task' && e.event.task.id === 'live' && e.event.task.status === 'completed'));
    await currentDesk().api('POST', '/', { id: 'live', prompt: 'Talk\nsay hello there\nthink quietly\nplan A; B\nwrite a.txt x' });
    const events = (await arrived).filter((e) => e.taskId === 'live');
    socket.close();

    // A task event also carries other news (the agent's name once it starts): the status changes are where it differs.
    const statuses = events.flatMap((e) => (e.event.type === 'task' ? [e.event.task.status] : [])).filter((status, index, all) => status !== all[index - 1]);
    expect(statuses).toEqual(['queued', 'in-progress', 'completed']);
    const updates = events.flatMap((e) => (e.event.type === 'agent' ? [e.event.update] : []));
    expect(updates).toContainEqual({ kind: 'message', role: 'agent', text: 'hello there', messageId: expect.any(String) });
    expect(updates).toContainEqual({ kind: 'message', role: 'thought', text: 'quietly' });
    expect(updates.find((u) => u.kind === 'plan')).toMatchObject({ entries: [{ content: 'A' }, { content: 'B' }] });
    const edit = updates.find((u) => u.kind === 'tool-call-update' && u.status === 'completed');
    expect(edit).toMatchObject({ content: [{ type: 'diff', newText: 'x\n' }] });
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('replays what was recorded after a given seq, then goes on live', async () => {
    const recorded = (await currentDesk().api('GET', '/api/tasks/live/events')).json.events as EventEnvelope[];
    const from = recorded[2]?.seq as number;
    const socket = new WebSocket(socketUrl(`?after=${from}`), ['assignment-desk.v1', `bearer.${TEST_TOKEN}`]);
    const replayed = collect(socket, (events) => events.filter((e) => e.taskId === 'live').length >= recorded.length - 3);
    await opened(socket);
    expect(socket.protocol).toBe('assignment-desk.v1');
    const events = await replayed;
    socket.close();
    expect(events.filter((e) => e.taskId === 'live').map((e) => e.seq)).toEqual(recorded.slice(3).map((e) => e.seq));
  });

  it('refuses a connection without the token, or from a foreign page', async () => {
    expect(await refusedWith(new WebSocket(socketUrl()))).toBe(401);
    expect(await refusedWith(new WebSocket(socketUrl(), ['assignment-desk.v1', 'bearer.wrong-token']))).toBe(401);
    expect(await refusedWith(new WebSocket(socketUrl(), { headers: { authorization: `Bearer ${TEST_TOKEN}`, origin: 'https://evil.example' } }))).toBe(403);
  });
});

describe('a task\'s recorded events', () => {
  it('are readable page by page', async () => {
    const all = (await currentDesk().api('GET', '/api/tasks/live/events')).json.events as EventEnvelope[];
    const first = (await currentDesk().api('GET', '/api/tasks/live/events?limit=2')).json;
    expect(first.events).toEqual(all.slice(0, 2));
    expect(first.nextAfter).toBe(all[1]?.seq);
    const rest = (await currentDesk().api('GET', `/api/tasks/live/events?after=${first.nextAfter}`)).json;
    expect(rest.events).toEqual(all.slice(2));
  });

  it('answer 404 for an unknown task and 400 for a bad cursor', async () => {
    expect((await currentDesk().api('GET', '/api/tasks/nobody/events')).status).toBe(404);
    expect((await currentDesk().api('GET', '/api/tasks/live/events?after=-1')).status).toBe(400);
  });
});
