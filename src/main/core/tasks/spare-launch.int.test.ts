// A task's start forks nothing of the desk for its long-lived processes: its layer's holder and its agent's launcher
// are processes that were waiting before the task was submitted (host/spare-processes.ts). Seen from /proc: both
// started before a marker process the test starts just before it submits. The launcher's launch, long, comes as a
// file in the run's folder when that is in memory, private, and gone with the run. Its temp dir, on the data dir's disk,
// was made before it too.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { desksPerTest, policyAllowing } from '../test-support/desk-harness';
import { foldersInMemory, runFolderRootsFor } from '../sandbox/run-folders';

const openDesk = desksPerTest();
const sandboxed = existsSync('/usr/bin/bwrap') || process.env.DESK_REQUIRE_SANDBOX === '1';

/** When a process started, in clock ticks since boot (field 22 of /proc/<pid>/stat). */
function startTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

/** The processes whose command line holds `word` and names a path under `within` (this desk's, not another test's), by pid. */
function processesWith(word: string, within: string): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).flatMap((name) => {
    try {
      const words = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      return words.includes(word) && words.some((each) => each.includes(within)) ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

describe.skipIf(!sandboxed || process.platform !== 'linux')("a task's start", () => {
  it("takes its layer's holder and its agent's launcher from processes that waited for it", async () => {
    const d = await openDesk({ files: { 'README.md': '# Fixture\n' }, layers: 'always', policy: policyAllowing('execute', 'edit') });
    // The spares start a moment after the desk; a clock tick (10 ms) apart from the marker at least.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const marker = spawnSync('/bin/sh', ['-c', 'cat /proc/self/stat'], { encoding: 'utf8' }).stdout;
    const markerTicks = Number(marker.slice(marker.lastIndexOf(')') + 2).split(' ')[19]);
    expect((await d.api('POST', '/', { id: 'quick', prompt: 'run sleep 2 && echo done > done.txt' })).status).toBe(202);
    await d.waitForStatus('quick', 'in-progress');
    let agentPid: number | undefined;
    for (let tries = 0; tries < 100 && agentPid === undefined; tries++) {
      agentPid = (await d.api('GET', '/tasks/quick')).json.agentPid as number | undefined;
      if (agentPid === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(agentPid).toBeDefined();
    const holders = processesWith('desk-state', d.dataDir);
    expect(holders.length).toBeGreaterThan(0);
    expect(startTicks(agentPid as number)).toBeLessThan(markerTicks);
    for (const holder of holders) expect(startTicks(holder)).toBeLessThan(markerTicks);
    const roots = runFolderRootsFor(d.dataDir, { env: process.env, uid: process.getuid?.() });
    const launchFiles = () => (existsSync(roots.folders) ? readdirSync(roots.folders, { recursive: true, encoding: 'utf8' }).filter((path) => path.includes('spare-launch-')) : []);
    if (foldersInMemory(roots)) {
      const [launchFile, ...others] = launchFiles();
      expect(others).toEqual([]);
      expect(launchFile).toMatch(new RegExp(`/spare-launch-${agentPid}\\.sh$`));
      expect(statSync(join(roots.folders, launchFile as string)).mode & 0o777).toBe(0o600);
    }
    expect(await d.waitForStatus('quick', ['completed', 'error'])).toBe('completed');
    const commit = (await d.api('GET', '/tasks/quick')).json.commit as string;
    expect(execFileSync('git', ['-C', d.repo, 'show', `${commit}:done.txt`], { encoding: 'utf8' })).toBe('done\n');
    expect(launchFiles()).toEqual([]);
  });

  it('runs a task in a temp dir made before it was submitted, and leaves only the next one made ahead', async () => {
    const d = await openDesk({ files: { 'README.md': '# Fixture\n' }, policy: policyAllowing('execute', 'edit') });
    const roots = runFolderRootsFor(d.dataDir, { env: process.env, uid: process.getuid?.() });
    if (!foldersInMemory(roots)) return;
    const tempDirs = () => (existsSync(roots.temp) ? readdirSync(roots.temp) : []);
    expect((await d.api('POST', '/', { id: 'first', prompt: 'run echo "$TMPDIR" > tmp.txt' })).status).toBe(202);
    expect(await d.waitForStatus('first', ['completed', 'error'])).toBe('completed');
    // Made a moment after the first run took its own.
    for (let tries = 0; tries < 100 && tempDirs().length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    const madeAhead = tempDirs();
    expect(madeAhead).toHaveLength(1);
    expect((await d.api('POST', '/', { id: 'second', prompt: 'run echo "$TMPDIR" > tmp.txt' })).status).toBe(202);
    expect(await d.waitForStatus('second', ['completed', 'error'])).toBe('completed');
    const commit = (await d.api('GET', '/tasks/second')).json.commit as string;
    expect(execFileSync('git', ['-C', d.repo, 'show', `${commit}:tmp.txt`], { encoding: 'utf8' })).toBe(`${join(roots.temp, madeAhead[0] as string)}\n`);
    for (let tries = 0; tries < 100 && tempDirs().includes(madeAhead[0] as string); tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(tempDirs()).toHaveLength(1);
    expect(tempDirs()).not.toContain(madeAhead[0]);
  });
});
