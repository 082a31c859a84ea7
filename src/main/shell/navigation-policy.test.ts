import { describe, expect, it } from 'vitest';
import { createUserActivation, isExternalWebUrl, leavingDecision, navigationDecision } from './navigation-policy';

const origin = 'http://127.0.0.1:1337';

describe('navigation in the board window', () => {
  it('stays within the app origin', () => {
    expect(navigationDecision('http://127.0.0.1:1337/ui/', origin)).toBe('allow');
  });

  it.each(['https://example.com/', 'http://127.0.0.1:1338/ui/', 'file:///etc/passwd', 'javascript:alert(1)', 'http://127.0.0.1:1337@evil.test/'])('refuses %s', (url) => {
    expect(navigationDecision(url, origin)).toBe('deny');
  });
});

describe('links that leave the app', () => {
  it('open a web page the person clicked in their browser', () => {
    expect(leavingDecision('https://github.com/owner/repo/pull/1', origin, true)).toEqual({ openExternally: true });
  });

  it('open nothing when no person clicked', () => {
    expect(leavingDecision('https://example.com/', origin, false)).toEqual({ openExternally: false });
  });

  it.each(['file:///Applications/Calculator.app', 'smb://server/share', 'javascript:alert(1)', 'ms-settings:', 'https://user:pass@example.com/'])('never open %s, even when clicked', (url) => {
    expect(leavingDecision(url, origin, true)).toEqual({ openExternally: false });
  });

  it('do not open the app itself in a browser', () => {
    expect(leavingDecision('http://127.0.0.1:1337/ui/#token=secret', origin, true)).toEqual({ openExternally: false });
  });

  it('knows a web address from the rest', () => {
    expect(isExternalWebUrl('http://example.com')).toBe(true);
    expect(isExternalWebUrl('HTTPS://EXAMPLE.COM/path')).toBe(true);
    expect(isExternalWebUrl('mailto:a@b.c')).toBe(false);
    expect(isExternalWebUrl('not a url')).toBe(false);
  });
});

describe('user activation', () => {
  function clock(start = 0) {
    let now = start;
    return { now: () => now, advance: (ms: number) => { now += ms; } };
  }

  it('counts a click shortly before', () => {
    const time = clock();
    const activation = createUserActivation(time.now, 1_000);
    activation.noteInput('mouseDown');
    time.advance(300);
    expect(activation.consume()).toBe(true);
  });

  it('lets one click open one link', () => {
    const time = clock();
    const activation = createUserActivation(time.now, 1_000);
    activation.noteInput('mouseUp');
    expect(activation.consume()).toBe(true);
    expect(activation.consume()).toBe(false);
  });

  it('expires', () => {
    const time = clock();
    const activation = createUserActivation(time.now, 1_000);
    activation.noteInput('keyDown');
    time.advance(1_001);
    expect(activation.consume()).toBe(false);
  });

  it('ignores moving the mouse or scrolling', () => {
    const activation = createUserActivation(clock().now, 1_000);
    activation.noteInput('mouseMove');
    activation.noteInput('mouseWheel');
    expect(activation.consume()).toBe(false);
  });
});
