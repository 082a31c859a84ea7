import { describe, expect, it } from 'vitest';
import { isTrustedSender, parsePathArg } from './ipc-sender';

const origin = 'http://127.0.0.1:1337';
const board = { frameUrl: 'http://127.0.0.1:1337/ui/#token=x', isTopFrame: true, fromBoardWindow: true };

describe('who may call main over IPC', () => {
  it('trusts the board window\'s top frame on the app origin', () => {
    expect(isTrustedSender(board, origin)).toBe(true);
  });

  it.each([
    ['another port', 'http://127.0.0.1:1338/ui/'],
    ['a lookalike host', 'http://127.0.0.1:1337.evil.test/ui/'],
    ['credentials before another host', 'http://127.0.0.1:1337@evil.test/ui/'],
    ['localhost instead of 127.0.0.1', 'http://localhost:1337/ui/'],
    ['https', 'https://127.0.0.1:1337/ui/'],
    ['a file page', 'file:///app/out/renderer/index.html'],
    ['a frame that is gone', undefined],
  ])('refuses a sender on %s', (_name, frameUrl) => {
    expect(isTrustedSender({ ...board, frameUrl }, origin)).toBe(false);
  });

  it('refuses an iframe, even of the app origin', () => {
    expect(isTrustedSender({ ...board, isTopFrame: false }, origin)).toBe(false);
  });

  it('refuses any other window', () => {
    expect(isTrustedSender({ ...board, fromBoardWindow: false }, origin)).toBe(false);
  });

  it('trusts nobody before the core listens', () => {
    expect(isTrustedSender(board, undefined)).toBe(false);
  });
});

describe('the path argument', () => {
  it('takes an absolute path, normalized', () => {
    expect(parsePathArg('/home/me/repo/../repo/src', 'linux')).toBe('/home/me/repo/src');
    expect(parsePathArg('C:\\Users\\me\\repo', 'win32')).toBe('C:\\Users\\me\\repo');
  });

  it.each([['a relative path', 'src/index.ts'], ['an empty string', ''], ['a NUL byte', '/tmp/a\0b'], ['a number', 42], ['an object', { path: '/tmp' }], ['a huge string', `/${'a'.repeat(5000)}`]])('refuses %s', (_name, value) => {
    expect(parsePathArg(value, 'linux')).toBeUndefined();
  });
});
