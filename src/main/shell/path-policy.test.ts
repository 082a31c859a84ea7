import { describe, expect, it } from 'vitest';
import { isInsideRoots, openFileAction } from './path-policy';

describe('paths the native extras may touch', () => {
  const roots = ['/home/me/repo', '/home/me/.local/share/assignment-desk/worktrees'];

  it('include the repository and the task worktrees, and what is inside them', () => {
    expect(isInsideRoots('/home/me/repo', roots, 'linux')).toBe(true);
    expect(isInsideRoots('/home/me/repo/src/index.ts', roots, 'linux')).toBe(true);
    expect(isInsideRoots('/home/me/.local/share/assignment-desk/worktrees/abc/task-1', roots, 'linux')).toBe(true);
  });

  it.each(['/home/me/.ssh/id_ed25519', '/home/me/repo-other/x', '/home/me', '/etc/passwd', '/home/me/.local/share/assignment-desk/token'])('exclude %s', (path) => {
    expect(isInsideRoots(path, roots, 'linux')).toBe(false);
  });

  it('compare Windows paths without regard to case', () => {
    expect(isInsideRoots('c:\\users\\me\\repo\\src', ['C:\\Users\\me\\repo'], 'win32')).toBe(true);
    expect(isInsideRoots('D:\\repo', ['C:\\Users\\me\\repo'], 'win32')).toBe(false);
  });
});

describe('opening a file in an editor', () => {
  it('uses ASSIGNMENT_DESK_EDITOR with the file as its last argument', () => {
    expect(openFileAction({ file: '/repo/a b.ts', editor: "code --goto", executable: false }))
      .toEqual({ kind: 'editor', command: 'code', args: ['--goto', '/repo/a b.ts'] });
  });

  it('otherwise uses the system\'s app for the file', () => {
    expect(openFileAction({ file: '/repo/README.md', editor: undefined, executable: false })).toEqual({ kind: 'default-app' });
  });

  it.each(['/repo/setup.exe', '/repo/run.BAT', '/repo/install.command', '/repo/app.desktop', '/repo/tool.jar', '/repo/script.js'])('shows %s in its folder rather than letting the system run it', (file) => {
    expect(openFileAction({ file, editor: undefined, executable: false }).kind).toBe('reveal');
  });

  it('shows an executable file in its folder', () => {
    expect(openFileAction({ file: '/repo/build.sh', editor: undefined, executable: true }).kind).toBe('reveal');
  });

  it('says so when ASSIGNMENT_DESK_EDITOR cannot be read', () => {
    expect(openFileAction({ file: '/repo/a.ts', editor: "code 'unclosed", executable: false })).toMatchObject({ kind: 'reveal', reason: expect.stringContaining('ASSIGNMENT_DESK_EDITOR') });
  });
});
