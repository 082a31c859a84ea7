import { describe, expect, it } from 'vitest';
import { CHECK_TAIL_CHARS, checkResultOf } from './check-result';

describe('a check result', () => {
  it('passes on exit code 0 and fails on another code, with its code', () => {
    expect(checkResultOf({ exitCode: 0, signal: null, tail: 'ok\n', started: true }, 12.4)).toEqual({ status: 'passed', exitCode: 0, durationMs: 12, outputTail: 'ok\n' });
    expect(checkResultOf({ exitCode: 3, signal: null, tail: '1 failing', started: true }, 5)).toMatchObject({ status: 'failed', exitCode: 3 });
  });

  it('is an error, without an exit code, when the check was killed or never started', () => {
    expect(checkResultOf({ exitCode: null, signal: 'SIGKILL', tail: '', started: true }, 5)).toEqual({ status: 'error', durationMs: 5, outputTail: '' });
    expect(checkResultOf({ exitCode: 127, signal: null, tail: 'spawn sh ENOENT', started: false }, 1).status).toBe('error');
  });

  it('keeps only the end of a long output', () => {
    const result = checkResultOf({ exitCode: 1, signal: null, tail: `${'x'.repeat(5000)}the end`, started: true }, 1);
    expect(result.outputTail).toHaveLength(CHECK_TAIL_CHARS);
    expect(result.outputTail.endsWith('the end')).toBe(true);
  });
});
