// The Agent Protocol's artifacts on a real desk: the files a task's commits changed, uploads into its worktree,
// downloads byte for byte, and every way an upload is refused.
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deskPerFile, policyAllowing, TEST_TOKEN } from '../test-support/desk-harness';

// A later turn deletes a file; the agent asks first, and nobody is there to answer, so the policy allows it.
const currentDesk = deskPerFile({ concurrency: 4, policy: policyAllowing('delete') });

const AP = '/ap/v1/agent/tasks';
const auth = { authorization: `Bearer ${TEST_TOKEN}` };

async function createTask(input: string, additional?: Record<string, unknown>): Promise<string> {
  const response = await currentDesk().api('POST', AP, { input, ...(additional && { additional_input: additional }) });
  expect(response.status, response.text).toBe(200);
  return response.json.task_id as string;
}

async function upload(taskId: string, data: Buffer, fileName: string, relativePath?: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), fileName);
  if (relativePath !== undefined) form.append('relative_path', relativePath);
  const response = await fetch(`${currentDesk().url}${AP}/${taskId}/artifacts`, { method: 'POST', headers: auth, body: form });
  return { status: response.status, json: await response.json() as Record<string, unknown> };
}

async function download(taskId: string, artifactId: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(`${currentDesk().url}${AP}/${taskId}/artifacts/${artifactId}`, { headers: auth });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const artifacts = async (taskId: string) => (await currentDesk().api('GET', `${AP}/${taskId}/artifacts`)).json.artifacts;
/** Where the task's files are seen (a worktree that is a layer holds nothing but its link in its folder: docs/git.md). */
const worktreeOf = async (taskId: string): Promise<string> => await currentDesk().core.worktreeView(taskId) as string;
const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

describe('files the agent changed', () => {
  it('lists the files the task\'s commits changed and downloads their bytes from the commit', async () => {
    const taskId = await createTask('write docs/guide.md # Guide\nwrite notes.txt first');
    await currentDesk().waitForStatus(taskId, 'completed');
    const listed = await artifacts(taskId);
    expect(listed).toEqual([
      expect.objectContaining({ agent_created: true, file_name: 'guide.md', relative_path: 'docs' }),
      expect.objectContaining({ agent_created: true, file_name: 'notes.txt', relative_path: '' }),
    ]);
    const guide = await download(taskId, listed[0].artifact_id);
    expect(guide.status).toBe(200);
    expect(guide.headers.get('content-type')).toBe('application/octet-stream');
    expect(guide.headers.get('content-disposition')).toContain('filename="guide.md"');
    expect(guide.bytes.toString()).toBe('# Guide\n');
    expect((await currentDesk().api('GET', `${AP}/${taskId}/artifacts?page_size=1&current_page=2`)).json)
      .toEqual({ artifacts: [listed[1]], pagination: { total_items: 2, total_pages: 2, current_page: 2, page_size: 1 } });
  });

  it('leaves out what a dependency brought in and what a later turn deleted', async () => {
    const parent = await createTask('write parent.txt from the parent');
    await currentDesk().waitForStatus(parent, 'completed');
    const child = await createTask('write child.txt from the child\nwrite scratch.txt temporary', { dependencies: [parent] });
    await currentDesk().waitForStatus(child, 'completed');
    expect((await currentDesk().api('POST', `${AP}/${child}/steps`, { input: 'delete scratch.txt' })).status).toBe(200);
    await currentDesk().waitForStatus(child, 'completed');
    await expect.poll(async () => (await artifacts(child)).map((a: { file_name: string }) => a.file_name)).toEqual(['child.txt']);
  });
});

describe('uploads', () => {
  it('writes an upload into the worktree, lists it as not agent-created and downloads it byte for byte, also after a turn commits it', async () => {
    const taskId = await createTask('say ready');
    await currentDesk().waitForStatus(taskId, 'completed');
    const uploaded = await upload(taskId, everyByte, 'data.bin', 'inputs/raw');
    expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(200);
    expect(uploaded.json).toMatchObject({ agent_created: false, file_name: 'data.bin', relative_path: 'inputs/raw' });
    expect(readFileSync(join(await worktreeOf(taskId), 'inputs/raw/data.bin'))).toEqual(everyByte);
    expect(await artifacts(taskId)).toEqual([uploaded.json]);
    expect((await download(taskId, uploaded.json.artifact_id as string)).bytes).toEqual(everyByte);

    expect((await currentDesk().api('POST', `${AP}/${taskId}/steps`, { input: 'read inputs/raw/data.bin' })).status).toBe(200);
    await currentDesk().waitForStatus(taskId, 'completed');
    const steps = (await currentDesk().api('GET', `${AP}/${taskId}/steps`)).json.steps;
    expect(steps[1].artifacts).toEqual([expect.objectContaining({ artifact_id: uploaded.json.artifact_id, agent_created: false })]);
    expect((await download(taskId, uploaded.json.artifact_id as string)).bytes).toEqual(everyByte);
  });

  it('puts a folder written with a leading slash at the worktree\'s top, and an upload without one there too', async () => {
    const taskId = await createTask('say ready');
    await currentDesk().waitForStatus(taskId, 'completed');
    expect((await upload(taskId, Buffer.from('a'), 'a.txt', '/python/code/')).json).toMatchObject({ relative_path: 'python/code' });
    expect((await upload(taskId, Buffer.from('b'), 'b.txt')).json).toMatchObject({ relative_path: '', file_name: 'b.txt' });
    expect(existsSync(join(await worktreeOf(taskId), 'python/code/a.txt'))).toBe(true);
  });

  it('refuses a path outside the worktree, through a symlink out of it, or into its .git, with 422 and writes nothing', async () => {
    const taskId = await createTask('say ready');
    await currentDesk().waitForStatus(taskId, 'completed');
    const worktree = await worktreeOf(taskId);
    const outside = join(currentDesk().root, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(worktree, 'link'));
    for (const [relativePath, fileName] of [['../..', 'escape.txt'], ['a/../../b', 'escape.txt'], ['link', 'escape.txt'], ['.git', 'config'], ['sub/.GIT', 'x']]) {
      const refused = await upload(taskId, Buffer.from('nope'), fileName as string, relativePath);
      expect(refused.status, relativePath).toBe(422);
      expect(refused.json.message, relativePath).toEqual(expect.any(String));
    }
    expect(existsSync(join(outside, 'escape.txt'))).toBe(false);
    expect(existsSync(join(currentDesk().root, 'data', 'escape.txt'))).toBe(false);
  });

  it('waits for a task that is starting, and refuses (409) a task that waits on a dependency', async () => {
    const starting = await createTask('say hello');
    const uploaded = await upload(starting, Buffer.from('early'), 'early.txt');
    expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(200);
    const waiting = await createTask('say later', { dependencies: ['never-submitted'] });
    const refused = await upload(waiting, Buffer.from('x'), 'x.txt');
    expect(refused.status).toBe(409);
    expect(refused.json.message).toMatch(/no worktree yet/);
  });

  it('waits for a task queued behind a full desk rather than refusing it: a free place is coming', async () => {
    const busy = await Promise.all([1, 2, 3, 4].map(() => createTask('sleep 60000')));
    for (const id of busy) await currentDesk().waitForStatus(id, 'in-progress');
    const queued = await createTask('say after the others');
    const pending = upload(queued, Buffer.from('queued'), 'queued.txt');
    for (const id of busy) expect((await currentDesk().api('DELETE', `/tasks/${id}`)).status).toBe(200);
    const uploaded = await pending;
    expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(200);
  });

  it('refuses an upload without a file (422), a body that is not multipart (415) and a file over 50 MiB (413)', async () => {
    const taskId = await createTask('say ready');
    const form = new FormData();
    form.append('relative_path', 'x');
    const noFile = await fetch(`${currentDesk().url}${AP}/${taskId}/artifacts`, { method: 'POST', headers: auth, body: form });
    expect(noFile.status).toBe(422);
    expect((await noFile.json() as { message: string }).message).toMatch(/^file: required/);
    expect((await currentDesk().api('POST', `${AP}/${taskId}/artifacts`, { file: 'x' })).status).toBe(415);
    const huge = await upload(taskId, Buffer.alloc(50 * 1024 * 1024 + 1), 'huge.bin');
    expect(huge.status).toBe(413);
    expect((await artifacts(taskId)).some((a: { file_name: string }) => a.file_name === 'huge.bin')).toBe(false);
  });
});
