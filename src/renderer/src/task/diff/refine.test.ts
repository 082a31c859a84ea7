import { describe, expect, it } from 'vitest';
import { refinePrompt } from './refine';

describe('refinePrompt', () => {
  it('lists each file:line with its comment', () => {
    expect(refinePrompt([
      { path: 'src/a.ts', line: 3, side: 'new', text: 'Name this better' },
      { path: 'b.txt', line: 1, side: 'old', text: 'Keep this\nline' },
    ])).toBe('Please refine your changes after these review comments:\n\n- src/a.ts:3: Name this better\n- b.txt:1 (removed line): Keep this line');
  });
});
