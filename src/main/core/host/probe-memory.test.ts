import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeMemoryIn } from './probe-memory';

let root: string;
afterEach(() => { if (root) rmSync(root, { recursive: true, force: true }); });

describe('probeMemoryIn', () => {
  it('recalls a value only under the fingerprint it was kept with, and forgets it on request', () => {
    root = mkdtempSync(join(tmpdir(), 'probe-memory-'));
    const memory = probeMemoryIn(join(root, 'probes'));
    expect(memory.recall('sandbox', 'boot-1')).toBeUndefined();
    memory.remember('sandbox', 'boot-1', { available: true });
    expect(memory.recall('sandbox', 'boot-1')).toEqual({ available: true });
    expect(memory.recall('sandbox', 'boot-2')).toBeUndefined();
    expect(memory.recall('limits', 'boot-1')).toBeUndefined();
    memory.forget('sandbox');
    expect(memory.recall('sandbox', 'boot-1')).toBeUndefined();
    expect(readdirSync(join(root, 'probes'))).toEqual([]);
  });

  it('reads a broken or foreign file as nothing kept, and drops a write it cannot make', () => {
    root = mkdtempSync(join(tmpdir(), 'probe-memory-'));
    const dir = join(root, 'probes');
    const memory = probeMemoryIn(dir);
    memory.remember('sandbox', 'f', 1);
    writeFileSync(join(dir, 'sandbox.json'), '{"fingerprint": "f", "val');
    expect(memory.recall('sandbox', 'f')).toBeUndefined();
    writeFileSync(join(dir, 'sandbox.json'), '"just a string"');
    expect(memory.recall('sandbox', 'f')).toBeUndefined();
    if (process.getuid?.() !== 0) {
      chmodSync(dir, 0o500);
      expect(() => memory.remember('limits', 'f', { mode: 'cgroup-v1' })).not.toThrow();
      chmodSync(dir, 0o700);
    }
    // A cache folder that is a file: nothing kept, nothing thrown, nothing left half-written.
    const blocked = probeMemoryIn(join(dir, 'sandbox.json', 'below'));
    expect(() => blocked.remember('x', 'f', 1)).not.toThrow();
    expect(blocked.recall('x', 'f')).toBeUndefined();
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(existsSync(join(dir, 'sandbox.json'))).toBe(true);
  });
});
