import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asarUnpacked, electronBindingFile, nativeBindingFor, rebuildFailureKind } from './native-binding';

const facts = { platform: 'linux', arch: 'x64', outDir: join('/repo', 'out'), betterSqliteVersion: '12.11.1' };

describe('which SQLite binary a runtime loads', () => {
  it('leaves plain Node to better-sqlite3\'s own build in node_modules', () => {
    expect(nativeBindingFor({ ...facts, versions: { modules: '115' } })).toBeUndefined();
  });

  it('gives Electron its separate build, named by ABI, platform and arch', () => {
    expect(nativeBindingFor({ ...facts, versions: { electron: '45.4.1', modules: '140' } }))
      .toBe(join('/repo', 'out', 'native', 'better-sqlite3-12.11.1-electron-abi140-linux-x64', 'better_sqlite3.node'));
  });

  it('keeps builds for different Electron ABIs and better-sqlite3 versions apart', () => {
    const one = electronBindingFile('out', { betterSqliteVersion: '12.11.1', abi: '140', platform: 'linux', arch: 'x64' });
    expect(electronBindingFile('out', { betterSqliteVersion: '12.11.1', abi: '143', platform: 'linux', arch: 'x64' })).not.toBe(one);
    expect(electronBindingFile('out', { betterSqliteVersion: '12.12.0', abi: '140', platform: 'linux', arch: 'x64' })).not.toBe(one);
    expect(electronBindingFile('out', { betterSqliteVersion: '12.11.1', abi: '140', platform: 'linux', arch: 'arm64' })).not.toBe(one);
  });

  it('never points into node_modules, where the Node build lives', () => {
    expect(nativeBindingFor({ ...facts, versions: { electron: '45.4.1', modules: '140' } })).not.toContain('node_modules');
  });

  it('reads a packaged app\'s binary from app.asar.unpacked', () => {
    const inAsar = ['', 'opt', 'Assignment Desk', 'resources', 'app.asar', 'out'].join(sep);
    expect(nativeBindingFor({ ...facts, outDir: inAsar, versions: { electron: '45.4.1', modules: '140' } }))
      .toContain(`${sep}app.asar.unpacked${sep}out${sep}native${sep}`);
  });

  it('leaves paths outside an archive alone, including names that merely contain app.asar', () => {
    const path = ['', 'home', 'me', 'my-app.asar-notes', 'x'].join(sep);
    expect(asarUnpacked(path)).toBe(path);
  });
});

describe('a failed rebuild', () => {
  it('blames the network when Electron\'s headers cannot be downloaded', () => {
    expect(rebuildFailureKind('gyp http fetch GET https://electronjs.org/headers/v45.4.1/node-v45.4.1-headers.tar.gz attempt 1 failed with ENOTFOUND')).toBe('network');
  });

  it('blames the compiler toolchain otherwise', () => {
    expect(rebuildFailureKind('gyp ERR! stack Error: not found: make')).toBe('toolchain');
  });
});
