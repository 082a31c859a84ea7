// The judge's prompt and the reading of its answer.
import { describe, expect, it } from 'vitest';
import { cutText, diffTextOf, judgePromptOf, parseJudgeAnswer, type JudgedAttempt } from './attempt-judge';
import { parseScript } from '../../../scripted-agent/script';

describe('reading the judge answer', () => {
  it('takes the attempt and the reason from the last RECOMMEND line', () => {
    expect(parseJudgeAnswer('Attempt 1 is messy.\nRECOMMEND: attempt-1 - first thought\nOn reflection:\nRECOMMEND: attempt-2 - it has tests and a smaller diff.'))
      .toEqual({ kind: 'recommend', n: 2, reason: 'it has tests and a smaller diff.' });
  });

  it('reads the line through markdown and other spellings of the attempt', () => {
    expect(parseJudgeAnswer('**RECOMMEND:** Attempt 3 — cleanest.')).toEqual({ kind: 'recommend', n: 3, reason: 'cleanest.' });
    expect(parseJudgeAnswer('`RECOMMEND: attempt-#4: passes the check`')).toEqual({ kind: 'recommend', n: 4, reason: 'passes the check' });
  });

  it('takes the paragraph before as the reason when the line gives none', () => {
    expect(parseJudgeAnswer('Intro.\n\nAttempt 2 handles the empty list.\nRECOMMEND: attempt-2')).toEqual({ kind: 'recommend', n: 2, reason: 'Attempt 2 handles the empty list.' });
  });

  it('reads a judge that finds none acceptable', () => {
    expect(parseJudgeAnswer('RECOMMEND: none - both break the build')).toEqual({ kind: 'none', reason: 'both break the build' });
  });

  it('finds nothing in an answer without the line, or with only the form the prompt showed', () => {
    expect(parseJudgeAnswer('I think the second one is better.')).toEqual({ kind: 'missing' });
    expect(parseJudgeAnswer('RECOMMEND: attempt-<n> - <why>\nRECOMMEND: none - <why>')).toEqual({ kind: 'missing' });
    expect(parseJudgeAnswer('RECOMMEND: attempt-0 - zero')).toEqual({ kind: 'missing' });
  });

  it('bounds a long reason', () => {
    const answer = parseJudgeAnswer(`RECOMMEND: attempt-1 - ${'x'.repeat(5000)}`);
    expect(answer.kind === 'recommend' && answer.reason.length).toBe(600);
  });
});

describe('the judge prompt', () => {
  const attempt = (n: number, diff: string): JudgedAttempt => ({ n, agent: 'scripted', branch: `desk/t-${n}`, diff, workingMs: 65_000, tokens: 1200, check: { status: 'failed', exitCode: 1, durationMs: 2000, outputTail: '1 test failed' } });

  it('shows each attempt with its diff, check, time and tokens, then how to answer, then the task as given', () => {
    const prompt = judgePromptOf({ prompt: 'Fix the parser' }, [attempt(1, '+a\n'), attempt(3, '+b\n')]);
    expect(prompt).toContain('## Attempt 1 (attempt-1)');
    expect(prompt).toContain('## Attempt 3 (attempt-3)');
    expect(prompt).toContain('Working time: 1.1 min. Tokens: 1200.');
    expect(prompt).toContain('Check: failed (exit code 1) in 2 s.');
    expect(prompt).toContain('1 test failed');
    expect(prompt).toContain('```diff\n+b\n```');
    expect(prompt).toContain('RECOMMEND: attempt-<n> - <why>');
    expect(prompt.endsWith('## The task, as every attempt was given it\nFix the parser')).toBe(true);
  });

  it('cuts a long diff and says where the whole one is', () => {
    const long = Array.from({ length: 20_000 }, (_, i) => `+line ${i}`).join('\n');
    const prompt = judgePromptOf({ prompt: 'x' }, [attempt(1, long), attempt(2, '+b\n')]);
    expect(prompt.length).toBeLessThan(40_000);
    expect(prompt).toMatch(/\[cut: \d+ more characters not shown; the whole diff is on branch desk\/t-1\]/);
  });

  it('starts no line of its own with a word the scripted agent would act on', () => {
    const prompt = judgePromptOf({ prompt: '' }, [{ ...attempt(1, ''), check: undefined }]);
    expect(parseScript(prompt).filter((command) => command.kind !== 'say')).toEqual([]);
  });
});

describe('a diff as text', () => {
  it('is a unified diff per file, naming binary files without their bytes', () => {
    const text = diffTextOf({ base: 'a', head: 'b', files: [
      { path: 'a.txt', status: 'modified', additions: 1, deletions: 1, binary: false, oldText: 'one\n', newText: 'two\n', tooLarge: false },
      { path: 'logo.png', status: 'added', additions: 0, deletions: 0, binary: true, tooLarge: false },
    ] });
    expect(text).toContain('--- a/a.txt\n+++ b/a.txt');
    expect(text).toContain('-one\n+two');
    expect(text).toContain('(binary file, added: +0 -0)');
    expect(text).not.toContain('Index:');
  });

  it('is kept whole when short enough', () => {
    expect(cutText('abc', 10, 'elsewhere')).toBe('abc');
  });
});
