// A full disk under the desk's data dir, for real: an 8 MiB tmpfs holds the data dir (database and worktrees), a real
// agent fills it from inside the sandbox, and the desk must stay up, say "Disk full" and where, lose nothing, keep its
// database intact and recover by itself once space is freed. Needs root (mount); CI runs it (DESK_REQUIRE_SANDBOX=1).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../../shared/events';
import { isolateGitConfig } from '../git/git-test-fixture';
import { makeRepo, policyAllowing, startDesk, taskEvents, writePolicy, type Desk } from '../test-support/desk-harness';
import { sandboxForTests } from '../sandbox/test-support/sandbox-for-tests';
import { fillUp, mountSmallFileSystem, unmountSmallFileSystem } from '../test-support/small-file-system';

const { status: sandbox, skip: noSandbox } = await sandboxForTests();

const small = noSandbox ? { skip: noSandbox } : mountSmallFileSystem();
const skip = small.skip;

describe.skipIf(skip)(`a full disk under the data dir${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const dataDir = small.dir as string;
  let root: string;
  let desk: Desk;
  let restoreGit: () => void = () => {};
  const logged: string[] = [];
  const lineWaiters: { matches(line: string): boolean; resolve(): void }[] = [];
  /** Resolves at the first line the desk logs (already, from line `from` on, or later) that `matches`. */
  const logLine = (matches: (line: string) => boolean, from = 0) => new Promise<void>((resolve) => {
    if (logged.slice(from).some(matches)) resolve();
    else lineWaiters.push({ matches, resolve });
  });

  beforeAll(async () => {
    restoreGit = isolateGitConfig();
    root = mkdtempSync(join(tmpdir(), 'desk-disk-full-'));
    const repo = makeRepo(root);
    // The agent runs its own commands (as people allow real agents to), confined by the sandbox.
    writePolicy(dataDir, policyAllowing('execute', 'edit'));
    desk = await startDesk({
      reuse: { root, repo, dataDir }, sandbox,
      log: (line) => {
        logged.push(line);
        for (const waiter of lineWaiters.filter((w) => w.matches(line))) { waiter.resolve(); lineWaiters.splice(lineWaiters.indexOf(waiter), 1); }
      },
    });
  });

  afterAll(async () => {
    await desk?.close();
    unmountSmallFileSystem(dataDir);
    rmSync(root, { recursive: true, force: true });
    restoreGit();
  });

  it('ends the task that filled the disk in error saying "Disk full" and where, stays up, and recovers by itself once space is freed', async () => {
    const submitted = await desk.api('POST', '/', { id: 'filler', prompt: 'run dd if=/dev/zero of=fill.bin bs=1M count=64\nwrite after.txt written after the disk filled' });
    expect(submitted.status).toBe(202);
    await desk.waitForStatus('filler', ['error', 'completed'], 60_000);

    const failed = (await desk.api('GET', '/tasks/filler')).json;
    const worktree = desk.core.tasks.detail('filler').worktreePath as string;
    expect(failed.status).toBe('error');
    expect(failed.errorMessage).toMatch(/^Disk full: /);
    expect(failed.errorMessage).toContain(worktree);
    expect(failed.errorMessage).toContain(`file system mounted at ${dataDir}`);
    // The task's activity says it too (read while its events may still wait in memory for room).
    const activity = await taskEvents(desk, 'filler');
    expect(activity.some((e: TaskEvent) => e.type === 'log' && e.level === 'error' && e.text.startsWith('Disk full: '))).toBe(true);

    // The desk's own writes found no room: it says so once, and answers while the disk is full.
    await logLine((line) => line.startsWith('Disk full: task events could not be written'));
    const settings = await desk.api('GET', '/api/settings');
    expect(settings.status).toBe(200);
    expect(settings.json.diskFull.message).toMatch(/^Disk full: /);
    expect(settings.json.diskFull.path).toBe(dataDir);
    expect((await desk.api('GET', '/')).status).toBe(200);
    // A submission while the disk is full is either stored or refused saying why, never lost after a yes.
    const during = await desk.api('POST', '/', { id: 'during', prompt: 'say hello' });
    if (during.status === 503) expect(during.json).toMatchObject({ error: 'disk_full', message: expect.stringMatching(/^Disk full: /) });
    else expect(during.status).toBe(202);

    // Space comes back: what waited is written, and new work runs, with the same desk.
    rmSync(join(worktree, 'fill.bin'));
    await logLine((line) => line.startsWith(`Space is back under ${dataDir}`));
    expect((await desk.api('GET', '/api/settings')).json.diskFull).toBeUndefined();
    const after = await desk.api('POST', '/', { id: 'after', prompt: 'write ok.txt fine' });
    expect(after.status).toBe(202);
    expect(await desk.waitForStatus('after', ['completed', 'error'], 60_000)).toBe('completed');

    const listed = (await desk.api('GET', '/')).json.tasks.map((task: { id: string }) => task.id);
    expect(listed).toEqual(expect.arrayContaining(['filler', 'after', ...(during.status === 202 ? ['during'] : [])]));
    // The events that waited are in the database itself, and the database is intact.
    desk.core.events.flush();
    const db = new Database(join(dataDir, 'desk.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = db.prepare("SELECT COUNT(*) AS n FROM events WHERE task_id = 'filler' AND body LIKE '%Disk full: %'").get() as { n: number };
      expect(stored.n).toBeGreaterThan(0);
      const rows = db.prepare('SELECT id, status FROM tasks').all() as { id: string; status: string }[];
      expect(rows).toEqual(expect.arrayContaining([{ id: 'filler', status: 'error' }, { id: 'after', status: 'completed' }]));
    } finally {
      db.close();
    }
  }, 180_000);

  it('keeps the output its own writes found no room for and stores all of it once space is freed, without a restart', async () => {
    const from = logged.length;
    // Nearly full: about 1 MiB is left, and the agent says 3 MiB.
    writeFileSync(join(dataDir, 'room.bin'), Buffer.alloc(1024 * 1024));
    const filler = fillUp(join(dataDir, 'filler.bin'));
    rmSync(join(dataDir, 'room.bin'));
    const submitted = await desk.api('POST', '/', { id: 'talker', prompt: 'spew 3m 4k\nsay done talking' });
    expect(submitted.status).toBe(202);
    await logLine((line) => line.startsWith('Disk full: task events could not be written'), from);
    const ended = await desk.waitForStatus('talker', ['completed', 'error'], 60_000);
    // The disk it ran on is full: either its work was committed before, or it says so.
    if (ended === 'error') expect(desk.core.tasks.detail('talker').errorMessage).toMatch(/^Disk full: /);
    expect((await desk.api('GET', '/api/settings')).json.diskFull.queuedEvents).toBeGreaterThan(0);

    rmSync(filler);
    await logLine((line) => line.startsWith(`Space is back under ${dataDir}`), from);
    desk.core.events.flush();
    const db = new Database(join(dataDir, 'desk.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const said = db.prepare("SELECT SUM(size) AS bytes FROM events WHERE task_id = 'talker' AND output = 1").get() as { bytes: number };
      expect(said.bytes).toBe(3 * 1024 * 1024 + 'done talking'.length);
    } finally {
      db.close();
    }
  }, 180_000);
});
