import { describe, expect, it } from 'vitest';
import { freeName, nameFromFolder } from './repo-names';

describe('repository names', () => {
  it('is the folder\'s name, with what a URL segment cannot hold plainly turned into "-"', () => {
    expect(nameFromFolder('/home/me/src/api')).toBe('api');
    expect(nameFromFolder('/home/me/src/My Project (old)')).toBe('My-Project-old-');
    expect(nameFromFolder('/home/me/src/.dotted')).toBe('dotted');
    expect(nameFromFolder('/home/me/src/ünïcode')).toBe('n-code');
    expect(nameFromFolder('/')).toBe('repo');
  });

  it('adds -2, -3… when another repository has the name already', () => {
    expect(freeName('api', new Set())).toBe('api');
    expect(freeName('api', new Set(['api', 'api-2']))).toBe('api-3');
  });
});
