// Limits where no cgroup can be made: the task's activity says they are not enforced per task (or for this run),
// and rlimits bound each process on its own where prlimit exists.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareDeskFolders } from './cgroup-groups';
import { fallbackStatus } from './limits-mode';
import { createTaskLimits } from './task-limits';

const machine = { totalMemoryMb: 4096, cpus: 2 };
const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((path) => existsSync(path));

describe('limits without cgroups', () => {
  it.skipIf(PRLIMIT === undefined)('bounds each process\'s data with an rlimit and says limits are not enforced per task', async () => {
    const lines: string[] = [];
    const limits = createTaskLimits({ enforcement: { status: fallbackStatus('linux', PRLIMIT, ['cgroup-v1: read-only file system']), reserved: [], prlimit: PRLIMIT as string, ready: async () => {}, close: () => {} }, machine });
    const group = await limits.open({ taskId: 't', policy: { memoryMb: 300 }, log: (line) => lines.push(line) });
    const { command, args } = group.wrap('/bin/sh', ['-c', 'ulimit -d']);
    expect(execFileSync(command, args, { encoding: 'utf8' }).trim()).toBe(String(300 * 1024));
    expect(lines.join('\n')).toMatch(/^Limits not enforced per task: .*read-only file system.*systemd user session/s);
    expect(group.description).toMatch(/^Limits per process \(rlimits\): 300 MB of data each/);
    await group.close();
  });

  it('runs a task unbounded, and says so in its activity, when its group cannot be made', async () => {
    // A file where the hierarchy should be: no folder can be made below it.
    const notADir = join(mkdtempSync(join(tmpdir(), 'desk-limits-')), 'not-a-dir');
    writeFileSync(notADir, '');
    const layout = { version: 1 as const, memory: join(notADir, 'memory'), pids: join(notADir, 'pids') };
    const enforcement = { status: { mode: 'cgroup-v1' as const, enforced: true, detail: 'cgroup v1' }, layout, reserved: [], ready: () => prepareDeskFolders(layout), close: () => {} };
    const lines: string[] = [];
    const group = await createTaskLimits({ enforcement, machine }).open({ taskId: 'gone', policy: undefined, log: (line) => lines.push(line) });
    rmSync(dirname(notADir), { recursive: true, force: true });
    expect(group.wrap('make', ['test'])).toEqual({ command: 'make', args: ['test'] });
    expect(lines).toEqual([expect.stringMatching(/^Limits not enforced for this run: its cgroup could not be made \(ENOTDIR.*not-a-dir.*\)\. Restart the desk/)]);
  });

  it('runs the command as it is where nothing can bound it, and says why in the task\'s activity', async () => {
    const lines: string[] = [];
    const limits = createTaskLimits({ enforcement: { status: fallbackStatus('linux', undefined, []), reserved: [], ready: async () => {}, close: () => {} }, machine });
    const group = await limits.open({ taskId: 't', policy: undefined, log: (line) => lines.push(line) });
    expect(group.wrap('codex', ['acp'])).toEqual({ command: 'codex', args: ['acp'] });
    expect(lines).toEqual([expect.stringMatching(/^Limits not enforced\. .* Or install prlimit/)]);
    expect(await limits.sweep()).toBe(0);
  });
});
