// The card's words for a request's unaddressed feedback.
import { describe, expect, it } from 'vitest';
import { unaddressedText } from '../../../shared/feedback-summary';

const comment = (id: string, extra: object = {}) => ({ id, author: 'a', body: 'b', url: 'u', createdAt: 't', ...extra });

describe('unaddressed feedback on the card', () => {
  it('counts open comments and failed checks in words, singular and plural', () => {
    expect(unaddressedText({ comments: [comment('1'), comment('2')], failedChecks: [{ name: 'test', url: 'u' }], unaddressed: 3 })).toBe('2 comments, 1 failed check');
    expect(unaddressedText({ comments: [comment('1')], failedChecks: [], unaddressed: 1 })).toBe('1 comment');
  });

  it('leaves out what was addressed or resolved, and says nothing when nothing is left', () => {
    const feedback = { comments: [comment('1', { addressedIn: 'abc' }), comment('2', { resolved: true })], failedChecks: [{ name: 'test', url: 'u', addressedIn: 'abc' }], unaddressed: 0 };
    expect(unaddressedText(feedback)).toBeUndefined();
    expect(unaddressedText(undefined)).toBeUndefined();
  });
});
