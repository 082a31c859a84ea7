// @vitest-environment happy-dom
// The review panel's feedback as a person uses it: the comments and failed checks, a link to a diff line only where
// the file is in the task, ticks and a note sent with Address, the forge's read error, and the turn on its way.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PullRequest } from '../../../../shared/pull-request';
import { resetDesk, seedDesk } from '../../state/test-desk';
import { summary } from '../../state/test-events';
import { ReviewFeedback } from './review-feedback';

const request: PullRequest = {
  forge: 'github', url: 'https://github.com/acme/widgets/pull/7', number: 7, state: 'open', draft: false, head: 'desk/done', base: 'main', checkedAt: 't',
  feedback: {
    comments: [
      { id: 'review-comment-1', author: 'ana', path: 'src/a.ts', line: 12, body: 'Use a constant.', url: 'u1', createdAt: 't' },
      { id: 'comment-2', author: 'bo', body: 'Add a test.', url: 'u2', createdAt: 't' },
      { id: 'review-comment-3', author: 'cy', path: 'docs/x.md', body: 'Not in this task.', url: 'u3', createdAt: 't', addressedIn: 'abcdef123456' },
    ],
    failedChecks: [{ name: 'unit tests', summary: 'failure: 1 test failed', url: 'u4' }],
    unaddressed: 3,
  },
};
const task = summary('done', { status: 'completed', review: 'pending', pullRequest: request });

afterEach(resetDesk);

describe('review feedback', () => {
  it('lists comments and failed checks, linking a comment to its diff line only where the file is in the task', async () => {
    seedDesk([task]);
    const shown = vi.fn();
    render(<ReviewFeedback taskId="done" filesInTask={['src/a.ts']} onShowLine={shown} />);
    const region = screen.getByRole('region', { name: 'Review feedback' });
    expect(within(region).getByText('2 comments, 1 failed check')).toBeTruthy();
    expect(within(region).getByText('failure: 1 test failed')).toBeTruthy();
    expect(within(region).getByText('addressed in abcdef12')).toBeTruthy();
    expect(within(region).queryByRole('button', { name: /docs\/x\.md/ })).toBeNull();
    await userEvent.click(within(region).getByRole('button', { name: 'Show line 12 of src/a.ts' }));
    expect(shown).toHaveBeenCalledWith('src/a.ts', 12);
  });

  it('sends the ticked comments, the checks and the note with Address', async () => {
    const api = seedDesk([task]);
    const address = vi.spyOn(api, 'addressFeedback').mockResolvedValue({ ...task, pullRequest: { ...request, addressing: { commentIds: ['review-comment-1'], checks: [], auto: false, requestedAt: 't' } } });
    render(<ReviewFeedback taskId="done" filesInTask={[]} onShowLine={() => {}} />);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Address the comment by bo' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Include the failed checks' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Note to the agent' }), 'Keep it short.');
    await userEvent.click(screen.getByRole('button', { name: 'Address' }));
    expect(address).toHaveBeenCalledWith('done', { commentIds: ['review-comment-1'], includeChecks: false, note: 'Keep it short.' });
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Address' })).toBeNull();
  });

  it("says why the forge could not be read, and says an automatic turn is on its way", () => {
    seedDesk([{ ...task, pullRequest: { ...request, feedbackError: 'GitHub answered 500: oops', addressing: { commentIds: [], checks: ['unit tests'], auto: true, requestedAt: 't' } } }]);
    render(<ReviewFeedback taskId="done" filesInTask={[]} onShowLine={() => {}} />);
    expect(screen.getByRole('alert').textContent).toContain('GitHub answered 500: oops');
    expect(screen.getByRole('status').textContent).toContain('started by itself: forge.autoAddress');
  });
});
