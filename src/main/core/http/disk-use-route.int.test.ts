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
    expect(empty.json).toMatchObject({ snapshots: 0, snapshotsBytes: 0, layersBytes: 0, totalBytes: 0 });
    const snapshot = join(desk.dataDir, 'snapshots', 'repo-1', 'a'.repeat(40), 'tree');
    mkdirSync(snapshot, { recursive: true });
    writeFileSync(join(snapshot, 'file.bin'), Buffer.alloc(100_000, 1));
    mkdirSync(join(desk.dataDir, 'layers', 't1'), { recursive: true });
    writeFileSync(join(desk.dataDir, 'layers', 't1', 'own.bin'), Buffer.alloc(50_000, 1));
    const { json } = await desk.api('GET', '/api/disk-use');
    expect(json.snapshots).toBe(1);
    expect(json.snapshotsBytes).toBeGreaterThanOrEqual(100_000);
    expect(json.layersBytes).toBeGreaterThanOrEqual(50_000);
    expect(json.totalBytes).toBe(json.snapshotsBytes + json.layersBytes);
  });
});
