import { describe, expect, it } from 'vitest';
import { commitMessageFor } from './commit-message';

describe('commitMessageFor', () => {
  it('puts the first line as subject, the whole prompt as body and a Task-Id trailer', () => {
    expect(commitMessageFor('t-1', 'Add a README\nExplain how to run it.')).toBe(
      'Add a README\n\nAdd a README\nExplain how to run it.\n\nTask-Id: t-1\n',
    );
  });

  it('trims blank lines around the prompt and normalises CRLF', () => {
    expect(commitMessageFor('x', '\n\n  Fix it\r\nnow  \n')).toBe('Fix it\n\nFix it\nnow\n\nTask-Id: x\n');
  });

  it('adds extra trailers after Task-Id', () => {
    expect(commitMessageFor('x', 'p', { Agent: 'scripted' })).toBe('p\n\np\n\nTask-Id: x\nAgent: scripted\n');
  });
});
