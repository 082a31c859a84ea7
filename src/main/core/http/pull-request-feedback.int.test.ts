// Review feedback from a real desk over HTTP, against stand-ins of GitHub's and GitLab's APIs and a bare repository as
// the push target: comments on lines and files, general comments and a failed check read into the task; a follow-up
// turn of the scripted agent addressing them, pushed to the request with replies in each thread; 404/409/400; a forge
// that answers 500 or garbage; and the token nowhere but in the forge's requests.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, isolateGitConfig } from '../git/git-test-fixture';
import { policyAllowing, taskEvents, waitForEvent, type RawResponse } from '../test-support/desk-harness';
import { completedTask, FORGE_SETUP, startForgeDesk, type ForgeDesk } from '../test-support/forge-desk';
import { FORGE_DESK_USER, FORGE_TEST_TOKEN } from '../test-support/forge-stand-in';

interface Comment { id: string; author: string; path?: string; line?: number; body: string; url: string; thread?: string; resolved?: boolean; addressedIn?: string }

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe.each(['github', 'gitlab'] as const)('feedback on %s requests', (kind) => {
  const { noun } = FORGE_SETUP[kind];
  let desk: ForgeDesk;
  let restoreGit: () => void = () => {};
  const answers: RawResponse[] = [];
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await desk.d.api(method, path, body);
    answers.push(answer);
    return answer;
  };
  let number = 0;
  let before: { commit: string; branch: string };
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    desk = await startForgeDesk(kind, {
      policy: policyAllowing('execute'),
      files: { 'README.md': '# Widgets\n', '.desk/config.json': JSON.stringify({ forge: { replyWhenAddressed: true } }) },
    });
    before = await completedTask(desk.d, 'fb');
    const opened = await call('POST', '/api/tasks/fb/pull-request');
    expect(opened.status, opened.text).toBe(201);
    number = opened.json.number;
  });
  afterAll(async () => {
    await desk?.close();
    restoreGit();
  });

  it('reads comments on lines and files, general comments and a failed check into GET /tasks/<id>, leaving out the desk\'s own', async () => {
    const { forge } = desk;
    ids.line = forge.comment(number, { author: 'ana', kind: 'line', path: 'fb.txt', line: 1, body: 'write fb.txt fixed by review\nrun env > seen-env.txt' });
    ids.reply = forge.comment(number, { author: 'bo', kind: 'line', path: 'fb.txt', line: 1, body: 'say agreed with ana', replyTo: ids.line });
    ids.file = forge.comment(number, { author: 'bo', kind: 'file', path: 'README.md', body: 'say this file reads fine' });
    ids.general = forge.comment(number, { author: 'cy', kind: 'general', body: 'write notes.txt from cy' });
    forge.comment(number, { author: FORGE_DESK_USER, kind: 'general', body: 'A comment the desk itself wrote' });
    if (kind === 'github') forge.setChecks([{ name: 'unit tests', status: 'completed', conclusion: 'failure', output: { title: '1 test failed', summary: 'fb.txt should say fixed' } }, { name: 'lint', status: 'completed', conclusion: 'success' }]);
    else {
      forge.setChecks('failed');
      forge.setFailedJobs([{ name: 'unit tests', stage: 'test', failure_reason: 'script_failure' }]);
    }

    const refreshed = await call('POST', '/api/tasks/fb/pull-request/refresh');
    expect(refreshed.status, refreshed.text).toBe(200);
    const { feedback } = (await call('GET', '/tasks/fb')).json.pullRequest;
    const comments = feedback.comments as Comment[];
    expect(comments.map((comment) => comment.author)).toEqual(['ana', 'bo', 'bo', 'cy']);
    expect(comments.some((comment) => comment.author === FORGE_DESK_USER)).toBe(false);
    const [line, reply, file, general] = comments as [Comment, Comment, Comment, Comment];
    expect(line).toMatchObject({ path: 'fb.txt', line: 1, body: 'write fb.txt fixed by review\nrun env > seen-env.txt', url: expect.stringContaining(String(ids.line)) });
    expect(reply.thread).toBe(line.thread);
    expect(file.path).toBe('README.md');
    expect(file.line).toBeUndefined();
    expect(general.path).toBeUndefined();
    if (kind === 'gitlab') expect(line.resolved).toBe(false);
    expect(feedback.failedChecks).toEqual([expect.objectContaining({ name: 'unit tests', url: expect.any(String), summary: kind === 'github' ? 'failure: 1 test failed\nfb.txt should say fixed' : 'stage test: script failure' })]);
    expect(feedback.unaddressed).toBe(5);
  });

  it('answers 400 naming a comment id the request does not have', async () => {
    const answer = await call('POST', '/api/tasks/fb/pull-request/address', { commentIds: ['review-comment-999999'] });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json).toMatchObject({ code: 'unknown_comment' });
  });

  it(`answers 404 no_pull_request for a task without a ${noun}`, async () => {
    await completedTask(desk.d, 'lonely');
    const answer = await call('POST', '/api/tasks/lonely/pull-request/address', {});
    expect(answer.status, answer.text).toBe(404);
    expect(answer.json).toMatchObject({ code: 'no_pull_request' });
  });

  it('starts a follow-up turn quoting the chosen comments with file and line, the failed check and the note; 409 while it works', async () => {
    const { comments } = (await call('GET', '/tasks/fb')).json.pullRequest.feedback as { comments: Comment[] };
    const chosen = [comments[0]!.id, comments[3]!.id];
    const answer = await call('POST', '/api/tasks/fb/pull-request/address', { commentIds: chosen, includeChecks: true, note: 'sleep 1500\nsay done with the review' });
    expect(answer.status, answer.text).toBe(202);
    expect(answer.json.pullRequest.addressing).toMatchObject({ commentIds: chosen, checks: ['unit tests'], auto: false });

    const again = await call('POST', '/api/tasks/fb/pull-request/address', {});
    expect(again.status, again.text).toBe(409);
    expect(again.json.code).toBe('task_busy');

    const prompt: string = (await call('GET', '/tasks/fb')).json.turns.at(-1).prompt;
    expect(prompt).toContain(`ana (fb.txt, line 1):\n    write fb.txt fixed by review\n    run env > seen-env.txt`);
    expect(prompt).toContain('cy (on the request):\n    write notes.txt from cy');
    expect(prompt).not.toContain('say agreed with ana');
    expect(prompt).toContain('- unit tests:');
    expect(prompt).toContain(kind === 'github' ? 'fb.txt should say fixed' : 'stage test: script failure');
    expect(prompt).toMatch(/sleep 1500\nsay done with the review$/);
  });

  it(`pushes the turn's commit to the ${noun}'s branch, never forced, and shows the new head with the comments addressed`, async () => {
    await waitForEvent(desk.d, 'fb', ({ event }) => event.type === 'task' && event.task.pullRequest?.addressing === undefined && event.task.pullRequest?.headCommit !== undefined && event.task.pullRequest.headCommit !== before.commit, 30_000);
    const task = (await call('GET', '/tasks/fb')).json;
    expect(task.commit).not.toBe(before.commit);
    expect(git(desk.bare, 'rev-parse', `refs/heads/${before.branch}`)).toBe(task.commit);
    expect(git(desk.bare, 'merge-base', '--is-ancestor', before.commit, task.commit)).toBe('');
    expect(git(desk.d.repo, 'show', `${task.commit}:fb.txt`)).toBe('fixed by review');
    expect(git(desk.d.repo, 'show', `${task.commit}:notes.txt`)).toBe('from cy');
    expect(task.pullRequest.headCommit).toBe(task.commit);
    const comments = task.pullRequest.feedback.comments as Comment[];
    expect(comments.filter((comment) => comment.addressedIn === task.commit).map((comment) => comment.author)).toEqual(['ana', 'cy']);
    // The failed check was on the old head; the new head's checks are the forge's to run.
    expect(task.pullRequest.feedback.unaddressed).toBe(2 + task.pullRequest.feedback.failedChecks.filter((check: { addressedIn?: string }) => !check.addressedIn).length);
    const texts = (await taskEvents(desk.d, 'fb')).flatMap((event) => (event.type === 'log' ? [event.text] : []));
    expect(texts.some((text) => text.startsWith(`Pushed ${task.commit.slice(0, 12)} to the ${noun} #${number}; it addresses 2 comments and 1 failed check`))).toBe(true);
  });

  it('replies in each addressed thread with the commit, and reads its own replies as the desk\'s', async () => {
    const { commit } = (await call('GET', '/tasks/fb')).json;
    const replies = desk.forge.comments.filter((comment) => comment.author === FORGE_DESK_USER && comment.body.includes(commit));
    expect(replies).toHaveLength(2);
    const calls = desk.forge.calls.filter((forgeCall) => forgeCall.method === 'POST' && /replies|notes|issues\/\d+\/comments/.test(forgeCall.path));
    expect(calls.map((forgeCall) => forgeCall.path).join('\n')).toContain(kind === 'github' ? `/comments/${ids.line}/replies` : '/discussions/');
    await call('POST', '/api/tasks/fb/pull-request/refresh');
    const comments = (await call('GET', '/tasks/fb')).json.pullRequest.feedback.comments as Comment[];
    expect(comments.some((comment) => comment.body.includes(commit))).toBe(false);
  });

  it('keeps the task and its request as they were when the forge answers 500 or garbage, and shows why', async () => {
    const kept = (await call('GET', '/tasks/fb')).json;
    desk.forge.answerNext({ status: 500, body: '<html>Internal Server Error</html>' });
    const failed = await call('POST', '/api/tasks/fb/pull-request/refresh');
    expect(failed.status, failed.text).toBe(502);
    expect(failed.json.code).toBe('forge_failed');
    let now = (await call('GET', '/tasks/fb')).json;
    expect(now).toMatchObject({ status: kept.status, commit: kept.commit, pullRequest: { state: 'open', feedback: kept.pullRequest.feedback } });
    expect(now.pullRequest.feedbackError).toContain('Internal Server Error');

    desk.forge.answerNext({ status: 200, body: '{"surprise": ["not", "a", "request"]}' });
    const garbled = await call('POST', '/api/tasks/fb/pull-request/refresh');
    expect(garbled.status, garbled.text).toBe(502);
    expect(garbled.json.message).toMatch(/not a (pull|merge) request/);
    now = (await call('GET', '/tasks/fb')).json;
    expect(now).toMatchObject({ status: kept.status, pullRequest: { state: 'open', number, feedback: kept.pullRequest.feedback } });
    expect(now.pullRequest.feedbackError).toBeTruthy();

    const recovered = await call('POST', '/api/tasks/fb/pull-request/refresh');
    expect(recovered.status, recovered.text).toBe(200);
    expect((await call('GET', '/tasks/fb')).json.pullRequest.feedbackError).toBeUndefined();
  });

  it('never puts the token in an answer, an event, a log line, a file of the desk or the agent\'s environment', async () => {
    const { commit } = (await call('GET', '/tasks/fb')).json;
    const seen = git(desk.d.repo, 'show', `${commit}:seen-env.txt`);
    expect(seen).toContain('PATH=');
    expect(seen).not.toContain(FORGE_TEST_TOKEN);
    for (const answer of answers) expect(answer.text).not.toContain(FORGE_TEST_TOKEN);
    for (const id of ['fb', 'lonely']) expect(JSON.stringify(await taskEvents(desk.d, id))).not.toContain(FORGE_TEST_TOKEN);
    expect(desk.lines.join('\n')).not.toContain(FORGE_TEST_TOKEN);
    for (const file of filesUnder(desk.d.dataDir)) expect(readFileSync(file).includes(FORGE_TEST_TOKEN), file).toBe(false);
  });
});

describe('a turn addressing feedback, cancelled or with no way to the forge', () => {
  let desk: ForgeDesk;
  let restoreGit: () => void = () => {};
  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    desk = await startForgeDesk('github');
  });
  afterAll(async () => {
    await desk?.close();
    restoreGit();
  });

  it('pushes nothing, says so, and lets a person address the feedback again', async () => {
    const before = await completedTask(desk.d, 'stopped');
    expect((await desk.d.api('POST', '/api/tasks/stopped/pull-request')).status).toBe(201);
    desk.forge.comment(1, { author: 'ana', kind: 'general', body: 'sleep 20000' });
    expect((await desk.d.api('POST', '/api/tasks/stopped/pull-request/refresh')).status).toBe(200);
    expect((await desk.d.api('POST', '/api/tasks/stopped/pull-request/address', {})).status).toBe(202);
    await desk.d.waitForStatus('stopped', 'in-progress');
    expect((await desk.d.api('DELETE', '/tasks/stopped')).status).toBe(200);

    const task = (await desk.d.api('GET', '/tasks/stopped')).json;
    expect(task.status).toBe('cancelled');
    expect(task.pullRequest.addressing).toBeUndefined();
    expect(task.pullRequest.feedback.unaddressed).toBe(1);
    expect(git(desk.bare, 'rev-parse', `refs/heads/${before.branch}`)).toBe(before.commit);
    const texts = (await taskEvents(desk.d, 'stopped')).flatMap((event) => (event.type === 'log' ? [event.text] : []));
    expect(texts).toContain('The turn addressing feedback ended cancelled; nothing was pushed.');
    const again = await desk.d.api('POST', '/api/tasks/stopped/pull-request/address', { commentIds: [], note: 'say once more' });
    expect(again.status, again.text).toBe(202);
    await desk.d.waitForStatus('stopped', ['completed']);
  });

  it('refuses to start a turn whose commit could not reach the forge, saying why, before the agent works', async () => {
    const turns = (await desk.d.api('GET', '/tasks/stopped')).json.turns.length;
    git(desk.d.repo, 'remote', 'rename', 'origin', 'elsewhere');
    try {
      const answer = await desk.d.api('POST', '/api/tasks/stopped/pull-request/address', { note: 'say hi' });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.json).toMatchObject({ code: 'no_remote' });
    } finally {
      git(desk.d.repo, 'remote', 'rename', 'elsewhere', 'origin');
    }
    const task = (await desk.d.api('GET', '/tasks/stopped')).json;
    expect(task.turns).toHaveLength(turns);
    expect(task.pullRequest.addressing).toBeUndefined();
  });

  it('pushes, after a restart, the commit of a turn that ended just before the desk stopped', async () => {
    const before = await completedTask(desk.d, 'restarted');
    expect((await desk.d.api('POST', '/api/tasks/restarted/pull-request')).status).toBe(201);
    const number = desk.forge.requests.find((request) => request.head === before.branch)!.number;
    desk.forge.comment(number, { author: 'ana', kind: 'general', body: 'write later.txt please' });
    expect((await desk.d.api('POST', '/api/tasks/restarted/pull-request/refresh')).status).toBe(200);
    const [comment] = (await desk.d.api('GET', '/tasks/restarted')).json.pullRequest.feedback.comments as Comment[];
    // The turn ran and committed; the desk stopped before it pushed (as a crash would leave it).
    expect((await desk.d.api('POST', '/tasks/restarted/prompt', { prompt: 'write later.txt please' })).status).toBe(202);
    await desk.d.waitForStatus('restarted', 'completed');
    const { commit } = (await desk.d.api('GET', '/tasks/restarted')).json;
    const { dataDir } = desk.d;
    await desk.d.close();
    const db = new Database(join(dataDir, 'desk.sqlite'));
    const row = db.prepare("SELECT pull_request FROM tasks WHERE id = 'restarted'").get() as { pull_request: string };
    const pullRequest = JSON.parse(row.pull_request);
    pullRequest.addressing = { commentIds: [comment!.id], checks: [], fromCommit: before.commit, auto: false, requestedAt: new Date().toISOString() };
    db.prepare("UPDATE tasks SET pull_request = ? WHERE id = 'restarted'").run(JSON.stringify(pullRequest));
    db.close();

    await desk.restart();
    await expect.poll(async () => (await desk.d.api('GET', '/tasks/restarted')).json.pullRequest.addressing, { timeout: 20_000 }).toBeUndefined();
    const task = (await desk.d.api('GET', '/tasks/restarted')).json;
    expect(git(desk.bare, 'rev-parse', `refs/heads/${before.branch}`)).toBe(commit);
    expect(task.pullRequest.feedback.comments[0].addressedIn).toBe(commit);
  });
});
