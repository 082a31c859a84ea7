// A repository's check (`check` of `.desk/config.json`) with a real desk: run after the agent's turn on the committed
// work, confined like the agent, its output streamed as the `check` terminal and its result on GET /tasks/<id>.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../../shared/events';
import { sandboxForTests } from '../sandbox/test-support/sandbox-for-tests';
import { desksPerTest, taskEvents, type Desk } from '../test-support/desk-harness';

const { skip: noSandbox } = await sandboxForTests();
const openDesk = desksPerTest();

function withConfig(config: object): Record<string, string> {
  return { 'README.md': '# Fixture\n', '.desk/config.json': JSON.stringify(config) };
}

const checkOutput = (events: TaskEvent[]) => events.flatMap((e) => (e.type === 'terminal-output' && e.terminalId === 'check' ? [e.data] : [])).join('');

async function detail(desk: Desk, id: string) {
  return (await desk.api('GET', `/tasks/${id}`)).json;
}

describe('a repository\'s check', () => {
  it('runs after the turn on its work and records a pass, with its output streamed as a terminal', async () => {
    const desk = await openDesk({ files: withConfig({ check: 'echo "checking $(cat done.txt)"; echo byproduct > check-output.txt' }) });
    await desk.api('POST', '/', { id: 'passing', prompt: 'write done.txt finished' });
    await desk.waitForStatus('passing', 'completed');
    const task = await detail(desk, 'passing');
    expect(task.check).toMatchObject({ status: 'passed', exitCode: 0 });
    expect(task.check.outputTail).toContain('checking finished');
    expect(task.check.durationMs).toBeGreaterThanOrEqual(0);
    const events = await taskEvents(desk, 'passing');
    expect(checkOutput(events)).toContain('checking finished');
    expect(events).toContainEqual(expect.objectContaining({ type: 'terminal-exited', terminalId: 'check', exitCode: 0 }));
    // What the check wrote is not part of the turn's commit: the check ran on the committed work.
    const committed = execFileSync('git', ['-C', desk.repo, 'show', '--name-only', '--format=', task.commit], { encoding: 'utf8' });
    expect(committed.trim().split('\n')).toEqual(['done.txt']);
  });

  it('records a failing check with its exit code and output, and the task stays completed with its commit', async () => {
    const desk = await openDesk({ files: withConfig({ check: 'echo "1 test failing" >&2; exit 3' }) });
    await desk.api('POST', '/', { id: 'failing', prompt: 'write broken.txt oops' });
    await desk.waitForStatus('failing', 'completed');
    const task = await detail(desk, 'failing');
    expect(task.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(task.check).toMatchObject({ status: 'failed', exitCode: 3 });
    expect(task.check.outputTail).toContain('1 test failing');
    expect((await desk.api('GET', '/')).json.tasks[0].check.status).toBe('failed');
  });

  it('checks a follow-up turn again, from the check the repository has then', async () => {
    const desk = await openDesk({ files: withConfig({ check: 'exit 1' }) });
    await desk.api('POST', '/', { id: 'again', prompt: 'write a.txt 1' });
    await desk.waitForStatus('again', 'completed');
    expect((await detail(desk, 'again')).check.status).toBe('failed');
    writeFileSync(join(desk.repo, '.desk/config.json'), JSON.stringify({ check: 'test -f b.txt' }));
    expect((await desk.api('POST', '/tasks/again/prompt', { prompt: 'write b.txt 2' })).status).toBeLessThan(300);
    await desk.waitForStatus('again', 'in-progress');
    await desk.waitForStatus('again', 'completed');
    expect((await detail(desk, 'again')).check).toMatchObject({ status: 'passed', exitCode: 0 });
  });

  it.each([['a checkout', undefined], ['a copy-on-write layer', 'always']] as const)('leaves nothing it wrote for a follow-up\'s commit in %s: files it added are removed, tracked files it changed put back', async (_kind, layers) => {
    const desk = await openDesk({ files: withConfig({ check: 'echo byproduct > check-output.txt; echo touched >> README.md; mkdir -p reports; echo r > reports/r.txt' }), ...(layers && { layers }) });
    await desk.api('POST', '/', { id: 'swept', prompt: 'write done.txt finished' });
    await desk.waitForStatus('swept', 'completed');
    const first = await detail(desk, 'swept');
    expect(first.check.status).toBe('passed');
    // The files as the task's processes see them (a layer's folder on disk holds only `.git`).
    const files = await desk.core.worktreeView('swept') as string;
    expect(existsSync(join(files, 'check-output.txt'))).toBe(false);
    expect(existsSync(join(files, 'reports/r.txt'))).toBe(false);
    expect(readFileSync(join(files, 'README.md'), 'utf8')).toBe('# Fixture\n');
    // The agent's work stays.
    expect(readFileSync(join(files, 'done.txt'), 'utf8').trim()).toBe('finished');
    const said = (await taskEvents(desk, 'swept')).flatMap((e) => (e.type === 'log' ? [e.text] : []));
    expect(said).toContain('What the check wrote is not the agent\'s work: removed check-output.txt, reports/r.txt; put back README.md as committed.');

    expect((await desk.api('POST', '/tasks/swept/prompt', { prompt: 'write more.txt more' })).status).toBeLessThan(300);
    await desk.waitForStatus('swept', 'in-progress');
    await desk.waitForStatus('swept', 'completed');
    const followed = await detail(desk, 'swept');
    const committed = execFileSync('git', ['-C', desk.repo, 'show', '--name-only', '--format=', followed.commit], { encoding: 'utf8' });
    expect(committed.trim().split('\n')).toEqual(['more.txt']);
  });

  it('is left out for a repository without a check', async () => {
    const desk = await openDesk({ files: withConfig({ copy: [] }) });
    await desk.api('POST', '/', { id: 'unchecked', prompt: 'write x.txt x' });
    await desk.waitForStatus('unchecked', 'completed');
    expect((await detail(desk, 'unchecked')).check).toBeUndefined();
    expect(checkOutput(await taskEvents(desk, 'unchecked'))).toBe('');
  });

  it.skipIf(noSandbox)('runs confined: the desk\'s database is out of its sight', async () => {
    const desk = await openDesk({ files: withConfig({ copy: [] }) });
    const database = join(desk.dataDir, 'desk.sqlite');
    writeFileSync(join(desk.repo, '.desk/config.json'), JSON.stringify({ check: `test -e ${JSON.stringify(database)} && echo "sees the database"` }));
    await desk.api('POST', '/', { id: 'confined', prompt: 'write y.txt y' });
    await desk.waitForStatus('confined', 'completed');
    const { check } = await detail(desk, 'confined');
    expect(check.status).toBe('failed');
    expect(check.outputTail).not.toContain('sees the database');
  });
});
