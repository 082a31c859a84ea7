import { describe, expect, it } from 'vitest';
import { loginShellInvocation, mergePathLists, needsLoginPath, pathFromShellOutput } from './login-path';

describe('PATH for an app started from the desktop', () => {
  it('is read from the login shell between markers, whatever its rc files print', () => {
    const { args } = loginShellInvocation('/bin/zsh');
    expect(args[0]).toBe('-ilc');
    const output = `Welcome back!\n__ASSIGNMENT_DESK_PATH__/opt/homebrew/bin:/usr/bin__ASSIGNMENT_DESK_PATH__`;
    expect(pathFromShellOutput(output)).toBe('/opt/homebrew/bin:/usr/bin');
  });

  it('is nothing when the shell printed no PATH', () => {
    expect(pathFromShellOutput('zsh: command not found: printf')).toBeUndefined();
  });

  it('keeps the inherited entries first and adds the missing ones', () => {
    expect(mergePathLists('/usr/bin:/bin', '/opt/homebrew/bin:/usr/bin:/Users/me/.npm-global/bin'))
      .toBe('/usr/bin:/bin:/opt/homebrew/bin:/Users/me/.npm-global/bin');
    expect(mergePathLists('/usr/bin', undefined)).toBe('/usr/bin');
  });

  it('is asked for only when started outside a terminal, and never on Windows', () => {
    expect(needsLoginPath('darwin', {}, false)).toBe(true);
    expect(needsLoginPath('linux', {}, true)).toBe(false);
    expect(needsLoginPath('win32', {}, false)).toBe(false);
    expect(needsLoginPath('darwin', { ASSIGNMENT_DESK_NO_LOGIN_PATH: '1' }, false)).toBe(false);
  });
});
