// The Agent Protocol's tasks and steps as a client sees them, on a real desk: AP tasks on the same board, turns as
// steps, follow-ups and questions answered through steps, 404s, 422s and pagination edges.
import { describe, expect, it } from 'vitest';
import { deskPerFile, TEST_TOKEN } from '../test-support/desk-harness';

const currentDesk = deskPerFile({ concurrency: 4 });

const AP = '/ap/v1/agent/tasks';
const createTask = async (input: string, additional?: Record<string, unknown>): Promise<string> => {
  const response = await currentDesk().api('POST', AP, { input, ...(additional && { additional_input: additional }) });
  expect(response.status, response.text).toBe(200);
  return response.json.task_id as string;
};
const steps = async (taskId: string) => (await currentDesk().api('GET', `${AP}/${taskId}/steps`)).json.steps;

describe('tasks', () => {
  it('creates a desk task from the input: on the board, with what the client sent and what the desk applied', async () => {
    const response = await currentDesk().api('POST', AP, { input: 'say hello', additional_input: { test_run_id: '123' } });
    expect(response.status, response.text).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    const task = response.json;
    expect(task).toMatchObject({
      input: 'say hello', artifacts: [],
      additional_input: { test_run_id: '123', agent: 'scripted', dependencies: [] },
    });
    expect(task.task_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(task.created_at)).not.toBeNaN();
    expect(Date.parse(task.modified_at)).not.toBeNaN();

    const board = (await currentDesk().api('GET', '/')).json.tasks.map((t: { id: string }) => t.id);
    expect(board).toContain(task.task_id);
    await currentDesk().waitForStatus(task.task_id, 'completed');
    expect((await currentDesk().api('GET', `${AP}/${task.task_id}`)).json).toMatchObject({ task_id: task.task_id, input: 'say hello' });
  });

  it('passes dependencies and the agent from additional_input to the desk task', async () => {
    const parent = await createTask('say parent');
    const child = await createTask('say child', { dependencies: [parent], agent: 'scripted' });
    expect((await currentDesk().api('GET', `/tasks/${child}`)).json).toMatchObject({ dependencies: [parent], agent: 'scripted' });
    await currentDesk().waitForStatus(child, 'completed');
  });

  it('refuses a body it cannot use with 422 and a message, and creates nothing', async () => {
    const before = (await currentDesk().api('GET', '/')).json.tasks.length;
    const bodies: unknown[] = [{}, { input: null }, { input: '   ' }, { input: 42 }, { input: 'x', additional_input: { dependencies: 'a' } },
      { input: 'x', additional_input: { agent: 'no-such-agent' } }];
    for (const body of bodies) {
      const response = await currentDesk().api('POST', AP, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(typeof response.json.message).toBe('string');
    }
    expect((await currentDesk().api('POST', AP, { input: '' })).json.message).toMatch(/^input: must not be empty/);
    // Attempts are for POST /: the answer says why not here, and where instead.
    for (const field of ['attempts', 'choose', 'judge']) {
      const attempts = await currentDesk().api('POST', AP, { input: 'x', additional_input: { [field]: field === 'attempts' ? [{}, {}] : 'judge' } });
      expect(attempts.status).toBe(422);
      expect(attempts.json.message).toMatch(new RegExp(`^additional_input\\.${field}: is not taken by the Agent Protocol: .* through POST / \\(Agent Assignment\\) instead`));
    }
    const broken = await currentDesk().raw('POST', AP, { headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' }, body: '{"input": ' });
    expect(broken.status).toBe(422);
    expect((await currentDesk().api('GET', '/')).json.tasks.length).toBe(before);
  });

  it('answers unknown tasks, steps and artifacts with 404 and a message', async () => {
    const known = await createTask('say known');
    const paths = [
      ['GET', `${AP}/no-such-task`], ['GET', `${AP}/no-such-task/steps`], ['POST', `${AP}/no-such-task/steps`],
      ['GET', `${AP}/no-such-task/artifacts`], ['GET', `${AP}/no-such-task/artifacts/abc`],
      ['GET', `${AP}/${known}/steps/${known}-turn-2`], ['GET', `${AP}/${known}/steps/other-turn-1`], ['GET', `${AP}/${known}/steps/x`],
      ['GET', `${AP}/${known}/artifacts/0123456789abcdef0123456789abcdef`],
    ] as const;
    for (const [method, path] of paths) {
      const response = await currentDesk().api(method, path, method === 'POST' ? { input: 'x' } : undefined);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.json.message, `${method} ${path}`).toEqual(expect.any(String));
    }
  });

  it('pages the task list: page size, pages past the end, the size cap and invalid numbers', async () => {
    for (const n of [1, 2, 3]) await createTask(`say page ${n}`);
    const total = (await currentDesk().api('GET', '/')).json.tasks.length;
    const first = (await currentDesk().api('GET', `${AP}?page_size=1&current_page=1`)).json;
    expect(first.tasks).toHaveLength(1);
    expect(first.pagination).toEqual({ total_items: total, total_pages: total, current_page: 1, page_size: 1 });
    const second = (await currentDesk().api('GET', `${AP}?page_size=1&current_page=2`)).json;
    expect(second.tasks[0].task_id).not.toBe(first.tasks[0].task_id);
    const past = (await currentDesk().api('GET', `${AP}?page_size=2&current_page=999`)).json;
    expect(past).toEqual({ tasks: [], pagination: { total_items: total, total_pages: Math.ceil(total / 2), current_page: 999, page_size: 2 } });
    expect((await currentDesk().api('GET', AP)).json.pagination).toMatchObject({ current_page: 1, page_size: 10 });
    expect((await currentDesk().api('GET', `${AP}?page_size=1000`)).json.pagination.page_size).toBe(100);
    for (const query of ['current_page=0', 'page_size=0', 'page_size=-1', 'current_page=abc', 'page_size=1.5']) {
      const response = await currentDesk().api('GET', `${AP}?${query}`);
      expect(response.status, query).toBe(422);
      expect(response.json.message, query).toMatch(/^(current_page|page_size): /);
    }
  });
});

describe('steps', () => {
  it('shows each turn as a step: input, output, status, its files, and a follow-up as the next step', async () => {
    const taskId = await createTask('say Hello from turn one\nwrite a.txt hello');
    await currentDesk().waitForStatus(taskId, 'completed');
    const [first] = await steps(taskId);
    expect(first).toMatchObject({
      task_id: taskId, step_id: `${taskId}-turn-1`, name: 'turn 1', status: 'completed', input: 'say Hello from turn one\nwrite a.txt hello',
      is_last: false, additional_output: { turn: 1, ended: 'completed', commit: expect.stringMatching(/^[0-9a-f]{40}$/) },
      artifacts: [expect.objectContaining({ file_name: 'a.txt', relative_path: '', agent_created: true })],
    });
    expect(first.output).toContain('Hello from turn one');

    const posted = await currentDesk().api('POST', `${AP}/${taskId}/steps`, { input: 'write b.txt two' });
    expect(posted.status, posted.text).toBe(200);
    expect(posted.json).toMatchObject({ step_id: `${taskId}-turn-2`, name: 'turn 2', input: 'write b.txt two', output: null });
    expect(['created', 'running']).toContain(posted.json.status);
    await currentDesk().waitForStatus(taskId, 'completed');

    const listed = await steps(taskId);
    expect(listed.map((s: { status: string }) => s.status)).toEqual(['completed', 'completed']);
    expect(listed[1].artifacts.map((a: { file_name: string }) => a.file_name)).toEqual(['b.txt']);
    expect((await currentDesk().api('GET', `${AP}/${taskId}/steps/${taskId}-turn-2`)).json).toEqual(listed[1]);
    const page = (await currentDesk().api('GET', `${AP}/${taskId}/steps?page_size=1&current_page=2`)).json;
    expect(page).toEqual({ steps: [listed[1]], pagination: { total_items: 2, total_pages: 2, current_page: 2, page_size: 1 } });
    const task = (await currentDesk().api('GET', `${AP}/${taskId}`)).json;
    expect(task.artifacts.map((a: { file_name: string }) => a.file_name).sort()).toEqual(['a.txt', 'b.txt']);
  });

  it('reports the first step when a client repeats the task input to start it, and queues other input behind the agent', async () => {
    const input = 'sleep 1500\nsay first done';
    const taskId = await createTask(input);
    const started = await currentDesk().api('POST', `${AP}/${taskId}/steps`, { input });
    expect(started.status, started.text).toBe(200);
    expect(started.json).toMatchObject({ step_id: `${taskId}-turn-1` });
    expect(['created', 'running']).toContain(started.json.status);

    const second = await currentDesk().api('POST', `${AP}/${taskId}/steps`, { input: 'say second done' });
    expect(second.status, second.text).toBe(200);
    expect(second.json).toMatchObject({ step_id: `${taskId}-turn-2`, status: 'created', input: 'say second done', additional_output: { queued: true } });
    const third = await currentDesk().api('POST', `${AP}/${taskId}/steps`, { input: 'say third done' });
    expect(third.json).toMatchObject({ step_id: `${taskId}-turn-3`, status: 'created' });
    const bare = await currentDesk().raw('POST', `${AP}/${taskId}/steps`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
    expect(bare.status, bare.text).toBe(200);
    expect(bare.json.step_id).toBe(`${taskId}-turn-1`);
    expect((await steps(taskId)).map((s: { step_id: string }) => s.step_id)).toEqual([1, 2, 3].map((n) => `${taskId}-turn-${n}`));
    expect((await currentDesk().api('GET', `${AP}/${taskId}/steps/${taskId}-turn-3`)).json).toEqual(third.json);

    await expect.poll(async () => (await steps(taskId)).map((s: { status: string }) => s.status), { timeout: 20_000 }).toEqual(['completed', 'completed', 'completed']);
    const done = await steps(taskId);
    // A follow-up in a fresh scripted session is told what came before; the step's own line is said last.
    expect(done.map((s: { output: string }) => s.output.split('Now:').at(-1))).toEqual(['first done', 'second done', 'third done']);
    expect((await currentDesk().api('GET', `/tasks/${taskId}`)).json.turns.map((t: { prompt: string }) => t.prompt)).toEqual([input, 'say second done', 'say third done']);
  });

  it('drops the queued steps when the step before them fails', async () => {
    const taskId = await createTask('sleep 800\nfail Boom');
    expect((await currentDesk().api('POST', `${AP}/${taskId}/steps`, { input: 'say never' })).json.step_id).toBe(`${taskId}-turn-2`);
    await currentDesk().waitForStatus(taskId, 'error');
    await expect.poll(async () => (await steps(taskId)).length).toBe(1);
    expect((await currentDesk().api('GET', `${AP}/${taskId}/steps/${taskId}-turn-2`)).status).toBe(404);
  });

  it('answers a permission question through a step: awaiting_input with the question, then the option the input names', async () => {
    const taskId = await createTask('ask May I write ok.txt?\nwrite ok.txt yes');
    await currentDesk().waitForStatus(taskId, 'awaiting-input');
    const [waiting] = await steps(taskId);
    expect(waiting.status).toBe('awaiting_input');
    expect(waiting.additional_output.question).toMatchObject({ kind: 'permission', prompt: 'May I write ok.txt?' });
    expect(waiting.additional_output.answer_with).toContain('"allow"');

    const unclear = await currentDesk().api('POST', `${AP}/${taskId}/steps`, { input: 'perhaps' });
    expect(unclear.status).toBe(422);
    expect(unclear.json.message).toContain('"reject"');
    const answered = await currentDesk().api('POST', `${AP}/${taskId}/steps`, { input: 'y' });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.json.step_id).toBe(`${taskId}-turn-1`);
    await currentDesk().waitForStatus(taskId, 'completed');
    expect((await currentDesk().api('GET', `${AP}/${taskId}`)).json.artifacts.map((a: { file_name: string }) => a.file_name)).toEqual(['ok.txt']);
  });

  it('answers form questions through steps: plain text fills a one-field form, additional_input.answer any form', async () => {
    const taskId = await createTask('question Which colour?\nquestion Which size?');
    await currentDesk().waitForStatus(taskId, 'awaiting-input');
    expect((await currentDesk().api('POST', `${AP}/${taskId}/steps`, { input: 'blue' })).status).toBe(200);
    await expect.poll(async () => (await steps(taskId))[0].additional_output.question?.prompt).toBe('Which size?');
    const question = (await steps(taskId))[0].additional_output.question;
    const answered = await currentDesk().api('POST', `${AP}/${taskId}/steps`, { additional_input: { question_id: question.id, answer: { answer: 'large' } } });
    expect(answered.status, answered.text).toBe(200);
    await currentDesk().waitForStatus(taskId, 'completed');
    const [done] = await steps(taskId);
    expect(done.output).toContain('blue');
    expect(done.output).toContain('large');
  });

  it('refuses an answer when nothing is open (409), and reports how a failed turn ended', async () => {
    const taskId = await createTask('fail Boom');
    await currentDesk().waitForStatus(taskId, 'error');
    const refused = await currentDesk().api('POST', `${AP}/${taskId}/steps`, { additional_input: { answer: { answer: 'x' } } });
    expect(refused.status).toBe(409);
    expect(refused.json.message).toMatch(/not waiting for an answer/);
    expect((await steps(taskId))[0]).toMatchObject({ status: 'completed', additional_output: { ended: 'error', error_message: expect.stringContaining('Boom') } });
  });
});

describe('security', () => {
  it('holds AP routes to the same token, Host and Origin rules as every route', async () => {
    expect((await currentDesk().raw('GET', AP)).status).toBe(401);
    expect((await currentDesk().raw('GET', AP, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    expect((await currentDesk().api('GET', AP, undefined, { host: 'evil.example' })).status).toBe(403);
    expect((await currentDesk().api('GET', AP, undefined, { origin: 'https://evil.example' })).status).toBe(403);
    const allowed = await currentDesk().api('GET', AP, undefined, { origin: 'https://prompt-pad.danmercer.net' });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://prompt-pad.danmercer.net');
    const preflight = await currentDesk().raw('OPTIONS', AP, { headers: { origin: 'https://prompt-pad.danmercer.net', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
  });
});
