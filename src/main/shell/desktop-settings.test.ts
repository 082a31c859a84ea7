import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSettingsStore, parseDesktopSettings, SETTINGS_FILE } from './desktop-settings';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'desk-settings-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('desktop settings', () => {
  it('start empty', () => {
    expect(parseDesktopSettings(undefined)).toEqual({ settings: {} });
  });

  it('are remembered across starts', () => {
    const dir = tempDir();
    createSettingsStore(dir, () => undefined).update({ port: 4242, repoPath: '/work/repo' });
    createSettingsStore(dir, () => undefined).update({ window: { x: 1, y: 2, width: 900, height: 700, maximized: false } });
    expect(createSettingsStore(dir, () => undefined).read()).toEqual({ port: 4242, repoPath: '/work/repo', window: { x: 1, y: 2, width: 900, height: 700, maximized: false } });
  });

  it('are readable by their owner only', () => {
    if (process.platform === 'win32') return;
    const dir = tempDir();
    createSettingsStore(dir, () => undefined).update({ port: 1337 });
    expect(statSync(join(dir, SETTINGS_FILE)).mode & 0o077).toBe(0);
  });

  it('fall back to defaults, saying why, when the file is damaged', () => {
    const dir = tempDir();
    writeFileSync(join(dir, SETTINGS_FILE), '{"port": "soon"');
    const messages: string[] = [];
    expect(createSettingsStore(dir, (message) => messages.push(message)).read()).toEqual({});
    expect(messages[0]).toContain(SETTINGS_FILE);
  });

  it('refuse a port outside 1–65535', () => {
    expect(parseDesktopSettings('{"port": 70000}').problem).toContain('port');
  });

  it('are written whole, as JSON a person can read', () => {
    const dir = tempDir();
    createSettingsStore(dir, () => undefined).update({ port: 1337 });
    expect(JSON.parse(readFileSync(join(dir, SETTINGS_FILE), 'utf8'))).toEqual({ port: 1337 });
  });
});
