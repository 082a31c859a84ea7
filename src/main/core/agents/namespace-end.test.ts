import { describe, expect, it } from 'vitest';
import { parseStat } from './namespace-end';

describe('reading a /proc stat line', () => {
  it('finds the state and start time after a command name holding spaces and parentheses', () => {
    const line = '4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10 18446744073709551615';
    expect(parseStat(line)).toEqual({ state: 'S', start: '987654' });
  });

  it('says nothing for a line cut short', () => {
    expect(parseStat('4242 (sh) S 1 4242')).toBeUndefined();
  });
});
