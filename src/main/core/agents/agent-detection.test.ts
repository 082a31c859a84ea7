import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCommand, isExecutableFile, pathDirs, type DetectionContext } from './agent-detection';

/** A file system that holds exactly these executables. */
const only = (...files: string[]) => (path: string) => files.includes(path);

const posix = (files: string[], extra: Partial<DetectionContext> = {}): DetectionContext => ({
  env: { PATH: '/usr/local/bin:/usr/bin' }, platform: 'linux', searchDirs: [], isExecutable: only(...files), ...extra,
});

describe('findCommand', () => {
  it('finds a bare name in the first PATH directory that has it', () => {
    expect(findCommand('gemini', posix(['/usr/bin/gemini', '/usr/local/bin/gemini']))).toEqual({ found: true, path: '/usr/local/bin/gemini' });
  });

  it('looks in the extra bin dirs after PATH', () => {
    const context = posix(['/desk/node_modules/.bin/opencode', '/repo/node_modules/.bin/opencode'], { searchDirs: ['/desk/node_modules/.bin', '/repo/node_modules/.bin'] });
    expect(findCommand('opencode', context)).toEqual({ found: true, path: '/desk/node_modules/.bin/opencode' });
  });

  it('prefers PATH over an extra bin dir, so a repository cannot shadow an installed agent', () => {
    const context = posix(['/usr/bin/qwen', '/repo/node_modules/.bin/qwen'], { searchDirs: ['/repo/node_modules/.bin'] });
    expect(findCommand('qwen', context)).toEqual({ found: true, path: '/usr/bin/qwen' });
  });

  it('says where it looked when a name is nowhere', () => {
    const result = findCommand('auggie', posix([], { searchDirs: ['/desk/node_modules/.bin'] }));
    expect(result).toEqual({ found: false, reason: '"auggie" was not found on PATH or in /desk/node_modules/.bin' });
  });

  it('takes an absolute path as it is', () => {
    expect(findCommand('/opt/agent/run', posix(['/opt/agent/run']))).toEqual({ found: true, path: '/opt/agent/run' });
    expect(findCommand('/opt/agent/gone', posix([]))).toEqual({ found: false, reason: '/opt/agent/gone does not exist or is not executable' });
  });

  it('refuses a relative path, which would mean a different file in each worktree', () => {
    expect(findCommand('./bin/agent', posix(['/usr/bin/agent']))).toMatchObject({ found: false, reason: expect.stringMatching(/relative path/) });
  });

  it('skips empty PATH entries instead of searching the current directory', () => {
    expect(pathDirs({ PATH: ':/usr/bin::' }, 'linux')).toEqual(['/usr/bin']);
  });

  describe('on Windows', () => {
    const windows = (files: string[], env: DetectionContext['env'] = { Path: 'C:\\npm;C:\\Windows' }): DetectionContext => ({
      env, platform: 'win32', searchDirs: [], isExecutable: only(...files),
    });

    it('tries each PATHEXT extension, reading Path in any case', () => {
      const context = windows(['C:\\npm\\codex-acp.CMD'], { Path: 'C:\\npm;C:\\Windows', PATHEXT: '.EXE;.CMD' });
      expect(findCommand('codex-acp', context)).toEqual({ found: true, path: 'C:\\npm\\codex-acp.CMD' });
    });

    it('uses the default extensions when PATHEXT is unset', () => {
      expect(findCommand('copilot', windows(['C:\\Windows\\copilot.EXE']))).toEqual({ found: true, path: 'C:\\Windows\\copilot.EXE' });
    });

    it('runs a name that already has a known extension as it is', () => {
      expect(findCommand('agent.exe', windows(['C:\\npm\\agent.exe']))).toEqual({ found: true, path: 'C:\\npm\\agent.exe' });
    });

    it('accepts an absolute path with a drive letter', () => {
      expect(findCommand('D:\\tools\\agent', windows(['D:\\tools\\agent.BAT']))).toEqual({ found: true, path: 'D:\\tools\\agent.BAT' });
    });
  });
});

describe('isExecutableFile', () => {
  it.skipIf(process.platform === 'win32')('accepts an executable file and refuses a plain file or a directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'detect-'));
    try {
      writeFileSync(join(dir, 'agent'), '#!/bin/sh\n', { mode: 0o755 });
      writeFileSync(join(dir, 'notes'), 'text', { mode: 0o644 });
      expect(isExecutableFile(join(dir, 'agent'))).toBe(true);
      expect(isExecutableFile(join(dir, 'notes'))).toBe(false);
      expect(isExecutableFile(dir)).toBe(false);
      expect(isExecutableFile(join(dir, 'missing'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
