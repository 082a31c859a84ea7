// A repository's `.desk/config.json` with a real desk: files the checkout ignores copied in, the setup command run
// (confined like the agent) before the agent sees the worktree, a failing setup ending the task, cleanup on reject.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../../shared/events';
import { desksPerTest, taskEvents, type Desk } from '../test-support/desk-harness';

const openDesk = desksPerTest();

function deskFiles(config: object): Record<string, string> {
  return {
    'README.md': '# Fixture\n',
    '.gitignore': '.env\ndeps/\nbuilt/\n',
    '.desk/config.json': JSON.stringify(config),
    'scripts/setup.sh': 'echo "installing…"\nmkdir -p built\necho "built by setup from $(cat deps/lib.txt)" > built/output.txt\necho done\n',
  };
}

/** What the person has in their checkout but git ignores. */
function plantIgnored(desk: Desk): void {
  writeFileSync(join(desk.repo, '.env'), 'API_URL=http://localhost\n');
  mkdirSync(join(desk.repo, 'deps'));
  writeFileSync(join(desk.repo, 'deps', 'lib.txt'), 'lib v1');
}

const texts = (events: TaskEvent[]) => JSON.stringify(events);

describe('a repository\'s worktree setup', () => {
  it('copies ignored files and runs the setup command before the agent, which sees what it made', async () => {
    const desk = await openDesk({ files: deskFiles({ setup: 'sh scripts/setup.sh', copy: ['.env', 'deps'] }) });
    plantIgnored(desk);
    await desk.api('POST', '/', { id: 'ready', prompt: 'read built/output.txt\nread .env' });
    await desk.waitForStatus('ready', 'completed');
    const events = await taskEvents(desk, 'ready');
    const setupOutput = events.flatMap((e) => (e.type === 'terminal-output' && e.terminalId === 'setup' ? [e.data] : [])).join('');
    expect(setupOutput).toContain('installing…');
    expect(events).toContainEqual(expect.objectContaining({ type: 'terminal-exited', terminalId: 'setup', exitCode: 0 }));
    // The agent read what setup built from the copied folder, and the copied .env.
    expect(texts(events)).toContain('built by setup from lib v1');
    expect(texts(events)).toContain('API_URL=http://localhost');
    const started = events.findIndex((e) => e.type === 'log' && e.text.startsWith('Started '));
    const setupEnded = events.findIndex((e) => e.type === 'terminal-exited' && e.terminalId === 'setup');
    expect(setupEnded).toBeLessThan(started);
  });

  it('ends the task in error with the tail of the output when setup fails, and no agent starts', async () => {
    const desk = await openDesk({ files: deskFiles({ setup: 'echo step one; echo "cannot find package foo" >&2; exit 3' }) });
    await desk.api('POST', '/', { id: 'broken', prompt: 'write never.txt no' });
    await desk.waitForStatus('broken', 'error');
    const task = (await desk.api('GET', '/tasks/broken')).json;
    expect(task.errorMessage).toMatch(/exited with code 3:\n(.|\n)*cannot find package foo/);
    const events = await taskEvents(desk, 'broken');
    expect(events.some((e) => e.type === 'log' && e.text.startsWith('Started '))).toBe(false);
  });

  it('runs the cleanup command in the worktree when the task is rejected', async () => {
    const desk = await openDesk({ files: deskFiles({ cleanup: 'echo "cleaning $(ls)"' }) });
    await desk.api('POST', '/', { id: 'tidy', prompt: 'write leftover.txt x' });
    await desk.waitForStatus('tidy', 'completed');
    expect((await desk.api('POST', '/tasks/tidy/reject')).status).toBe(200);
    const events = await taskEvents(desk, 'tidy');
    const cleanupOutput = events.flatMap((e) => (e.type === 'terminal-output' && e.terminalId === 'cleanup' ? [e.data] : [])).join('');
    expect(cleanupOutput).toContain('leftover.txt');
  });

  it('refuses a broken config file with the file and field named', async () => {
    const desk = await openDesk({ files: deskFiles({ setup: 42 }) });
    await desk.api('POST', '/', { id: 'bad', prompt: 'say hi' });
    await desk.waitForStatus('bad', 'error');
    expect((await desk.api('GET', '/tasks/bad')).json.errorMessage).toMatch(/\.desk\/config\.json: setup: /);
  });
});
