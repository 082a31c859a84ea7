// `GET /api/disk-use` on a real desk: what its snapshots and task layers take, as Settings shows it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { desksPerTest } from '../test-support/desk-harness';

const openDesk = desksPerTest();

describe('GET /api/disk-use', () => {
  it('answers what the snapshots and layers under the data dir take', async () => {
    const desk = await openDesk();
    const empty = await desk.api('GET', '/api/disk-use');
    expect(empty.status).toBe(200);
    // Nothing but the empty folders a desk makes at its start.
    expect(empty.json).toMatchObject({ snapshots: 0 });
    expect(empty.json.totalBytes).toBeLessThan(64 * 1024);
    const snapshot = join(desk.dataDir, 'snapshots', 'repo-1', 'a'.repeat(40), 'tree');
    mkdirSync(snapshot, { recursive: true });
    writeFileSync(join(snapshot, 'file.bin'), Buffer.alloc(100_000, 1));
    mkdirSync(join(desk.dataDir, 'task-layers', 't1'), { recursive: true });
    writeFileSync(join(desk.dataDir, 'task-layers', 't1', 'own.bin'), Buffer.alloc(50_000, 1));
    const { json } = await desk.api('GET', '/api/disk-use');
    expect(json.snapshots).toBe(1);
    expect(json.snapshotsBytes).toBeGreaterThanOrEqual(100_000);
    expect(json.layersBytes).toBeGreaterThanOrEqual(50_000);
    expect(json.totalBytes).toBe(json.snapshotsBytes + json.layersBytes);
    // This machine mounts overlays in a user namespace: new worktrees can be layers.
    expect(json.worktrees).toEqual({ kind: 'layers' });
  });

  it('says new worktrees are checkouts, and why, on a desk started without layers', async () => {
    const desk = await openDesk({ layers: 'never' });
    const { json } = await desk.api('GET', '/api/disk-use');
    expect(json.worktrees).toEqual({ kind: 'checkouts', reason: 'the desk was started with layers turned off' });
  });
});
