// The Kandev protocol text's own example agent (the seed's bash script, verbatim in the fixtures) run as a person
// would run it: `npm run serve -- --agent-command '…'`, with its dialect named and left to detection.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolateGitConfig, KANDEV_SEED_AGENT, makeRepo, rawRequest, seedAgentSkip, type RawResponse } from './core/testing';
import { hostProcesses, until, type Host } from './test-support/host-processes';

const SERVE = resolve(import.meta.dirname, 'serve.ts');
const TOKEN = 'kandev-seed-token-0123456789';
const { startHost, killAll } = hostProcesses(['--import', 'tsx', SERVE]);

const skip = seedAgentSkip();
let root: string | undefined;
let restoreGit: (() => void) | undefined;
beforeAll(() => {
  if (!skip) restoreGit = isolateGitConfig();
});
afterAll(() => restoreGit?.());
afterEach(() => {
  killAll();
  if (root) rmSync(root, { recursive: true, force: true });
});

const call = (host: Host, method: string, path: string, body?: unknown): Promise<RawResponse> => rawRequest(host.url, method, path,
  { authorization: `Bearer ${TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }) }, body === undefined ? undefined : JSON.stringify(body));

async function runSeedTask(dialectFlags: string[]): Promise<{ task: { status: string; errorMessage?: string }; said: string }> {
  root = mkdtempSync(join(tmpdir(), 'desk-kandev-seed-'));
  const repo = makeRepo(root);
  const host = await startHost(['--repo', repo, '--port', '0', '--data-dir', join(root, 'data'), '--token', TOKEN,
    '--agent-command', `bash '${KANDEV_SEED_AGENT}' --acp`, ...dialectFlags]);
  expect((await call(host, 'POST', '/', { id: 'seed', prompt: 'Fix the null pointer bug in the login function' })).status).toBe(202);
  const task = await until(async () => {
    const found = (await call(host, 'GET', '/tasks/seed')).json;
    return ['completed', 'error', 'cancelled'].includes(found.status) ? found : undefined;
  }, 'the seed agent\'s task to end', 30_000);
  const events = (await call(host, 'GET', '/api/tasks/seed/events?limit=1000')).json.events as { event: { type: string; update?: { kind: string; text?: string } } }[];
  const said = events.flatMap(({ event }) => (event.type === 'agent' && event.update?.kind === 'message' ? [event.update.text ?? ''] : [])).join('');
  return { task, said };
}

describe.skipIf(skip)(`the seed's Kandev example agent${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('completes a task given as --agent-command with --agent-dialect kandev', async () => {
    // The example agent changes no file: what it says, and its turn ending well, are what it shows.
    const { task, said } = await runSeedTask(['--agent-dialect', 'kandev']);
    expect(task.errorMessage).toBeUndefined();
    expect(task.status).toBe('completed');
    expect(said).toBe('Processing: Fix the null pointer bug in the login function');
  });

  it('completes a task when its dialect is left to detection', async () => {
    const { task, said } = await runSeedTask([]);
    expect(task.errorMessage).toBeUndefined();
    expect(task.status).toBe('completed');
    expect(said).toBe('Processing: Fix the null pointer bug in the login function');
  });
});
