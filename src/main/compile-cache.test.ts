// Whether the headless host keeps Node's compiled code between starts: what each Node answer means, and the built
// entry run for real (Node 22+ leaves a cache behind, Node 20 nothing, and neither stops the desk).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enableCompileCache, type CompileCacheApi } from './compile-cache';

const compileCacheStatus = { FAILED: 0, ENABLED: 1, ALREADY_ENABLED: 2, DISABLED: 3 };
const answering = (status: number): CompileCacheApi => ({ enableCompileCache: () => ({ status }), constants: { compileCacheStatus } });

describe('enableCompileCache', () => {
  it('does nothing on a Node without the cache (Node 20)', () => {
    expect(enableCompileCache({})).toBe('unsupported');
    expect(enableCompileCache({ enableCompileCache: () => ({ status: 1 }) })).toBe('unsupported');
  });

  it('says what Node did', () => {
    expect(enableCompileCache(answering(compileCacheStatus.ENABLED))).toBe('enabled');
    expect(enableCompileCache(answering(compileCacheStatus.ALREADY_ENABLED))).toBe('already-enabled');
    expect(enableCompileCache(answering(compileCacheStatus.DISABLED))).toBe('disabled');
    expect(enableCompileCache(answering(compileCacheStatus.FAILED))).toBe('failed');
  });

  it('treats a throw as a failed cache, not a failed start', () => {
    expect(enableCompileCache({ enableCompileCache: () => { throw new Error('EACCES'); }, constants: { compileCacheStatus } })).toBe('failed');
  });
});

describe('the built headless entry', () => {
  const entry = resolve(import.meta.dirname, '../../out/main/serve.js');
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const nodeHasCache = major > 22 || (major === 22 && minor >= 1);

  it.skipIf(!existsSync(entry))(`${nodeHasCache ? 'fills' : 'leaves alone'} Node's compile cache on Node ${process.versions.node} (needs the build: electron-vite build)`, () => {
    const temp = mkdtempSync(join(tmpdir(), 'desk-compile-cache-'));
    try {
      // Node puts its cache under the OS temp dir, which TMPDIR moves; NODE_COMPILE_CACHE would turn it on by itself.
      const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: temp };
      delete env.NODE_COMPILE_CACHE;
      delete env.NODE_DISABLE_COMPILE_CACHE;
      const run = spawnSync(process.execPath, [entry, '--help'], { env, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain('--repo');
      const cache = join(temp, 'node-compile-cache');
      if (nodeHasCache) expect(readdirSync(cache, { recursive: true }).length).toBeGreaterThan(0);
      else expect(existsSync(cache)).toBe(false);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
