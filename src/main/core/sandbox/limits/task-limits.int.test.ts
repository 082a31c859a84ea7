// Limits per task through a real agent in the real sandbox: a task that allocates 1.5 GB or starts 200 processes
// under `"limits": {"memoryMb": 300, "pids": 64}` is stopped short by the kernel, its activity names the limit,
// and the desk answers HTTP while the hog runs. The hogs are bounded, so a failing test cannot take the machine down.
import { existsSync, readdirSync, readFileSync, watch } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { desksPerTest, scriptedAgent, taskEvents, waitForEvent, type Desk } from '../../test-support/desk-harness';
import type { Attack, AttackResult } from '../test-support/hostile-agent';
import { hostileAgent, sandboxForTests } from '../test-support/sandbox-for-tests';
import { git } from '../../git/git-test-fixture';
import { deskFolderName, probeLimits } from './limits-probe';

const { skip: noSandbox } = await sandboxForTests();
const enforcement = await probeLimits({ dataDir: '/nonexistent-probe' });
enforcement.close();
const noLimits = enforcement.status.enforced ? false : `${enforcement.status.reason ?? ''} ${enforcement.status.fix ?? ''}`;
if (noLimits && process.env.DESK_REQUIRE_SANDBOX === '1') throw new Error(`The limits tests must run here (DESK_REQUIRE_SANDBOX=1), but: ${noLimits}`);
const skip = noSandbox || (noLimits ? `limits not enforced here: ${noLimits}` : false);

const LIMITS = { memoryMb: 300, pids: 64 };
// Two cores shared with other test runs: the agent starts from TypeScript sources and the hog fills 300 MB first.
const RUN_MS = 90_000;

// Allocates (and touches) 64 MB at a time up to 1.5 GB, pausing at 128 MB on a FIFO the test opens.
const MEMORY_HOG = `const fs=require('fs'),cp=require('child_process');const kept=[];
for(let mb=64;mb<=1536;mb+=64){kept.push(Buffer.alloc(64*1024*1024,1));process.stderr.write('allocated '+mb+' MB\\n');
if(mb===128){cp.execFileSync('mkfifo',['hog-pause']);fs.readFileSync('hog-pause');fs.unlinkSync('hog-pause');}}
process.stderr.write('hog done\\n');`;

// Starts up to 200 sleeps, pausing after 8 on a FIFO the test opens; ends every one it started.
const FORK_HOG = `const fs=require('fs'),cp=require('child_process');const kids=[];
for(let i=0;i<200;i++){const kid=cp.spawn('sleep',['60'],{stdio:'ignore'});kid.on('error',()=>{});if(kid.pid!==undefined)kids.push(kid);
if(i===7){cp.execFileSync('mkfifo',['hog-pause']);fs.readFileSync('hog-pause');fs.unlinkSync('hog-pause');}}
for(const kid of kids)kid.kill('SIGKILL');process.stdout.write('started '+kids.length+' of 200\\n');`;

describe.skipIf(skip)(`limits per task${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const openDesk = desksPerTest();

  const limitedDesk = () => openDesk({
    agents: [scriptedAgent(), hostileAgent()],
    policy: { version: 1, defaults: { capabilities: { execute: 'allow' }, limits: LIMITS } },
  });

  /** Runs the hog as the agent's own command; while it waits at its pause, asks the desk over HTTP, then lets it go on. */
  async function runHog(desk: Desk, id: string, script: string): Promise<{ result: AttackResult; answeredDuringHog: { status: number; taskStatus: string } }> {
    const attacks: Attack[] = [{ exec: `${JSON.stringify(process.execPath)} -e ${shellQuote(script)}` }];
    expect((await desk.api('POST', '/', { id, prompt: JSON.stringify(attacks), agent: 'hostile' })).status).toBe(202);
    await waitForEvent(desk, id, ({ event }) => event.type === 'log' && event.text.startsWith('Started Hostile agent'), RUN_MS);
    const worktree = (await desk.api('GET', `/tasks/${id}`)).json.worktreePath as string;
    const pause = join(worktree, 'hog-pause');
    await appears(worktree, 'hog-pause', RUN_MS);
    const during = await desk.api('GET', `/tasks/${id}`);
    await writeFile(pause, 'go');
    await desk.waitForStatus(id, ['completed', 'error'], RUN_MS);
    const detail = (await desk.api('GET', `/tasks/${id}`)).json;
    expect(detail.errorMessage).toBeUndefined();
    const [result] = JSON.parse(git(desk.repo, 'show', `${detail.commit}:attack-report.json`)) as AttackResult[];
    return { result: result as AttackResult, answeredDuringHog: { status: during.status, taskStatus: during.json.status } };
  }

  const logLines = async (desk: Desk, id: string) => (await taskEvents(desk, id)).flatMap((event) => (event.type === 'log' ? [event.text] : []));

  it('stops a task that allocates 1.5 GB at its 300 MB limit and says so in its activity, while the desk answers', async () => {
    const desk = await limitedDesk();
    const { result, answeredDuringHog } = await runHog(desk, 'memory-hog', MEMORY_HOG);
    expect(answeredDuringHog).toEqual({ status: 200, taskStatus: 'in-progress' });
    expect(result.ok).toBe(false);
    const reached = Math.max(...[...(result.error ?? '').matchAll(/allocated (\d+) MB/g)].map((match) => Number(match[1])));
    expect(reached).toBeGreaterThanOrEqual(128);
    expect(reached).toBeLessThan(300);
    expect(result.error).not.toContain('hog done');
    expect(await logLines(desk, 'memory-hog')).toContain('Memory limit reached (300 MB, policy limits.memoryMb): the kernel ended a process of this task.');
  }, RUN_MS * 3);

  it('stops a task that starts 200 processes at its limit of 64 and says so in its activity, while the desk answers', async () => {
    const desk = await limitedDesk();
    const { result, answeredDuringHog } = await runHog(desk, 'fork-hog', FORK_HOG);
    expect(answeredDuringHog).toEqual({ status: 200, taskStatus: 'in-progress' });
    const started = Number(/started (\d+) of 200/.exec(`${result.output ?? ''}${result.error ?? ''}`)?.[1] ?? 'NaN');
    expect(started).toBeGreaterThanOrEqual(8);
    expect(started).toBeLessThan(64);
    expect(await logLines(desk, 'fork-hog')).toContain('Process limit reached (64 processes and threads, policy limits.pids): the task could not start another process or thread.');
  }, RUN_MS * 3);

  it('keeps the agent from leaving its cgroup, and the desk out of it; the group is gone when the run ends', async () => {
    const desk = await limitedDesk();
    const mine = readFileSync('/proc/self/cgroup', 'utf8');
    const attacks: Attack[] = [
      { exec: 'for f in /sys/fs/cgroup/*/cgroup.procs /sys/fs/cgroup/cgroup.procs; do [ -e "$f" ] && echo $$ > "$f" && echo "left via $f"; done; cat /proc/self/cgroup' },
      { exec: 'mkdir /sys/fs/cgroup/memory/escape 2>&1 || mkdir /sys/fs/cgroup/escape 2>&1 || true' },
    ];
    expect((await desk.api('POST', '/', { id: 'leave', prompt: JSON.stringify(attacks), agent: 'hostile' })).status).toBe(202);
    await desk.waitForStatus('leave', ['completed', 'error'], RUN_MS);
    const detail = (await desk.api('GET', '/tasks/leave')).json;
    const report = JSON.parse(git(desk.repo, 'show', `${detail.commit}:attack-report.json`)) as AttackResult[];
    expect(report.map((result) => result.output ?? '').join('')).not.toContain('left via');
    expect(report[1]?.output).toMatch(/Read-only file system|Permission denied/);
    expect(existsSync('/sys/fs/cgroup/memory/escape') || existsSync('/sys/fs/cgroup/escape')).toBe(false);
    expect(readFileSync('/proc/self/cgroup', 'utf8')).toBe(mine);
    expect(mine).not.toContain('assignment-desk-');
    const folder = deskFolderName(desk.dataDir);
    const deskFolder = enforcement.layout?.version === 1 ? join(enforcement.layout.pids, '..', folder) : join(enforcement.layout?.base ?? '', '..', folder);
    const taskGroups = readdirSync(deskFolder, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(taskGroups).toEqual([]);
  }, RUN_MS * 2);
});

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Resolves once `name` exists in `dir` (already, or when the directory says it was created). */
function appears(dir: string, name: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dir, () => { if (existsSync(join(dir, name))) done(); });
    const timer = setTimeout(() => { watcher.close(); reject(new Error(`${name} did not appear in ${dir} within ${timeoutMs} ms`)); }, timeoutMs);
    function done() { clearTimeout(timer); watcher.close(); resolve(); }
    if (existsSync(join(dir, name))) done();
  });
}
