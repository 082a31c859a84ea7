import { describe, expect, it } from 'vitest';
import { defaultDataDir } from './data-dir';

describe('defaultDataDir', () => {
  it('follows XDG_DATA_HOME on Linux', () => {
    expect(defaultDataDir('linux', { XDG_DATA_HOME: '/data' }, '/home/me')).toBe('/data/assignment-desk');
  });

  it('falls back to ~/.local/share on Linux, ignoring a relative XDG_DATA_HOME', () => {
    expect(defaultDataDir('linux', {}, '/home/me')).toBe('/home/me/.local/share/assignment-desk');
    expect(defaultDataDir('linux', { XDG_DATA_HOME: 'rel' }, '/home/me')).toBe('/home/me/.local/share/assignment-desk');
  });

  it('uses Application Support on macOS', () => {
    expect(defaultDataDir('darwin', {}, '/Users/me')).toBe('/Users/me/Library/Application Support/Assignment Desk');
  });
});
