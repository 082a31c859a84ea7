// The detection that lets the desktop specs skip cleanly where Electron's binary was never downloaded.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { electronUnavailable, findElectronBinary } from './electron-binary';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function project(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'desk-electron-bin-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), content);
  }
  return root;
}

describe('finding the Electron binary', () => {
  it('reports an electron package whose binary was never downloaded', () => {
    const dir = project({ 'node_modules/electron/package.json': '{"version":"45.4.1"}', 'node_modules/electron/index.js': 'throw new Error("must not be loaded")' });
    expect(findElectronBinary(dir)).toEqual({ found: false, reason: expect.stringContaining('path.txt') });
    expect(electronUnavailable(dir, {}, 'linux')).toContain('npx electron --version');
  });

  it('reports a path.txt whose binary is gone', () => {
    const dir = project({ 'node_modules/electron/package.json': '{}', 'node_modules/electron/path.txt': 'electron' });
    expect(findElectronBinary(dir).found).toBe(false);
  });

  it('finds the binary path.txt names under dist', () => {
    const dir = project({ 'node_modules/electron/package.json': '{}', 'node_modules/electron/path.txt': 'electron', 'node_modules/electron/dist/electron': '' });
    expect(findElectronBinary(dir)).toEqual({ found: true, path: join(dir, 'node_modules/electron/dist/electron') });
  });

  it('asks for a display on Linux before launching a window', () => {
    const dir = project({ 'node_modules/electron/package.json': '{}', 'node_modules/electron/path.txt': 'electron', 'node_modules/electron/dist/electron': '' });
    expect(electronUnavailable(dir, {}, 'linux')).toContain('xvfb-run');
    expect(electronUnavailable(dir, { DISPLAY: ':99' }, 'linux')).toBeUndefined();
    expect(electronUnavailable(dir, {}, 'darwin')).toBeUndefined();
  });
});
