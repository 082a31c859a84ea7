// The decisions about a request's feedback: what is kept of a read, what a person chose, the follow-up prompt, and what
// forge.autoAddress takes on by itself.
import { describe, expect, it } from 'vitest';
import type { PullRequest } from '../../../shared/pull-request';
import type { FailedCheck } from '../../../shared/pull-request-feedback';
import type { ForgeComment } from '../forge/forge-api';
import { addressedReply, addressPrompt, autoChoice, chooseFeedback, DESK_MARK, keepFeedback, markAddressed } from './pull-request-feedback';

const comment = (id: string, extra: Partial<ForgeComment> = {}): ForgeComment => ({ id, author: 'ana', body: `about ${id}`, url: `u/${id}`, createdAt: '2026-01-01T00:00:00Z', ...extra });
const failing = (name: string, head = 'h1'): FailedCheck => ({ name, url: `u/${name}`, summary: `${name} failed`, head });
const request = (extra: Partial<PullRequest> = {}): PullRequest => ({
  forge: 'github', url: 'https://github.com/a/b/pull/1', number: 1, state: 'open', draft: false, head: 'desk/t', base: 'main', checkedAt: 't', ...extra,
});

describe('keeping a read of the feedback', () => {
  it("leaves out the desk's own comments, by its token's user and by its mark", () => {
    const kept = keepFeedback({ comments: [comment('a'), comment('b', { author: 'desk-bot' }), comment('c', { author: 'app[bot]', body: `Addressed.\n${DESK_MARK}` })], failedChecks: [] }, undefined, 'desk-bot');
    expect(kept.comments.map((c) => c.id)).toEqual(['a']);
    expect(kept.unaddressed).toBe(1);
  });

  it('remembers what was addressed, and counts a check failing again on a new head as new', () => {
    const first = keepFeedback({ comments: [comment('a'), comment('b')], failedChecks: [failing('test')] }, undefined, undefined);
    const addressed = markAddressed(first, ['a'], ['test'], 'c0ffee');
    expect(addressed.unaddressed).toBe(1);
    const again = keepFeedback({ comments: [comment('a'), comment('b'), comment('d')], failedChecks: [failing('test'), failing('test', 'h2')] }, addressed, undefined);
    expect(again.comments.map((c) => c.addressedIn)).toEqual(['c0ffee', undefined, undefined]);
    expect(again.failedChecks.map((c) => c.addressedIn)).toEqual(['c0ffee', undefined]);
    expect(again.unaddressed).toBe(3);
  });

  it('does not count a resolved thread as unaddressed', () => {
    expect(keepFeedback({ comments: [comment('a', { resolved: true }), comment('b', { resolved: false })], failedChecks: [] }, undefined, undefined).unaddressed).toBe(1);
  });
});

describe('choosing what to address', () => {
  const withFeedback = request({ feedback: markAddressed(keepFeedback({ comments: [comment('a'), comment('b'), comment('c')], failedChecks: [failing('test')] }, undefined, undefined), ['c'], [], 'x') });

  it('takes every open comment and failed check by default', () => {
    const chosen = chooseFeedback(withFeedback, {});
    expect(chosen.comments.map((c) => c.id)).toEqual(['a', 'b']);
    expect(chosen.checks.map((c) => c.name)).toEqual(['test']);
  });

  it('takes the named comments, and the checks only when asked', () => {
    const chosen = chooseFeedback(withFeedback, { commentIds: ['b'], includeChecks: false, note: '  keep it short ' });
    expect(chosen).toMatchObject({ comments: [{ id: 'b' }], checks: [], note: 'keep it short' });
  });

  it('refuses an unknown comment id, and a choice of nothing', () => {
    expect(() => chooseFeedback(withFeedback, { commentIds: ['zzz'] })).toThrow(expect.objectContaining({ code: 'unknown_comment' }));
    expect(() => chooseFeedback(withFeedback, { commentIds: [], includeChecks: false })).toThrow(expect.objectContaining({ code: 'nothing_to_address' }));
    expect(chooseFeedback(withFeedback, { commentIds: [], includeChecks: false, note: 'tidy up' }).note).toBe('tidy up');
  });
});

describe('the follow-up prompt', () => {
  it('quotes each comment verbatim with its file and line, each failed check with its summary, and the note', () => {
    const prompt = addressPrompt({
      comments: [comment('a', { path: 'src/a.ts', line: 12, body: 'Use a constant here.\nAnd name it well.' }), comment('b', { author: 'bo', path: 'old.txt' }), comment('c', { body: 'Add a test.' }), comment('d', { path: 'src/b.ts', oldLine: 4 })],
      checks: [failing('test')],
      note: 'Skip the rename.',
    }, { noun: 'pull request', url: 'https://github.com/a/b/pull/1' });
    expect(prompt).toContain('https://github.com/a/b/pull/1');
    expect(prompt).toContain('1. ana (src/a.ts, line 12):\n    Use a constant here.\n    And name it well.');
    expect(prompt).toContain('2. bo (old.txt):');
    expect(prompt).toContain('3. ana (on the request):\n    Add a test.');
    expect(prompt).toContain('4. ana (src/b.ts, removed line 4):');
    expect(prompt).toContain('- test:\n    test failed\n  u/test');
    expect(prompt).toMatch(/Skip the rename\.$/);
  });

  it('replies with the commit and the desk\'s mark', () => {
    expect(addressedReply('abc')).toContain('Addressed in abc.');
    expect(addressedReply('abc')).toContain(DESK_MARK);
  });
});

describe('forge.autoAddress', () => {
  const feedback = keepFeedback({ comments: [comment('a')], failedChecks: [failing('test')] }, undefined, undefined);

  it('takes on the kinds its mode names', () => {
    expect(autoChoice(request({ feedback }), 'off', 3)).toBeUndefined();
    expect(autoChoice(request({ feedback }), 'checks', 3)).toMatchObject({ comments: [], checks: [{ name: 'test' }], keys: ['check:test@h1'] });
    expect(autoChoice(request({ feedback }), 'comments', 3)).toMatchObject({ comments: [{ id: 'a' }], checks: [] });
    expect(autoChoice(request({ feedback }), 'all', 3)?.keys).toEqual(['a', 'check:test@h1']);
  });

  it('stops at the cap, and never takes the same feedback on twice', () => {
    expect(autoChoice(request({ feedback, autoTurns: 3 }), 'all', 3)).toBeUndefined();
    expect(autoChoice(request({ feedback, autoTried: ['a', 'check:test@h1'] }), 'all', 3)).toBeUndefined();
    expect(autoChoice(request({ feedback, autoTried: ['a'] }), 'all', 3)?.keys).toEqual(['check:test@h1']);
  });

  it('leaves a closed request, or one with a turn on its way, alone', () => {
    expect(autoChoice(request({ feedback, state: 'merged' }), 'all', 3)).toBeUndefined();
    expect(autoChoice(request({ feedback, addressing: { commentIds: [], checks: [], auto: true, requestedAt: 't' } }), 'all', 3)).toBeUndefined();
  });
});
