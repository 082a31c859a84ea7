// @vitest-environment happy-dom
// A task's pull request on its card: link and state, its unaddressed feedback or the turn addressing it, and once
// merged an Archive that does not open the task.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PullRequest } from '../../../shared/pull-request';
import { deskStore } from '../state/store';
import { resetDesk, seedDesk } from '../state/test-desk';
import { summary } from '../state/test-events';
import { TaskCard } from './task-card';

const request: PullRequest = {
  forge: 'github', url: 'https://github.com/acme/widgets/pull/4', number: 4, state: 'open', draft: true, head: 'desk/shipped', base: 'main', checkedAt: '2026-01-01T00:00:00Z',
  checks: { state: 'failure', total: 3, passed: 2, failed: 1 },
};
const shipped = (state: PullRequest['state']) => summary('shipped', { status: 'completed', review: 'pending', pullRequest: { ...request, state } });

afterEach(resetDesk);

describe('pull request on the card', () => {
  it('shows its link, state, draft and checks', () => {
    seedDesk([shipped('open')]);
    render(<TaskCard id="shipped" />);
    const card = screen.getByRole('article', { name: 'Task shipped' });
    expect(within(card).getByRole('link', { name: 'PR #4' }).getAttribute('href')).toBe(request.url);
    expect(within(card).getByText('open')).toBeTruthy();
    expect(within(card).getByText('draft')).toBeTruthy();
    expect(within(card).getByText('1 of 3 checks failed')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Archive task shipped' })).toBeNull();
  });

  it('archives a task whose request was merged in one click, without opening it', async () => {
    const api = seedDesk([shipped('merged')]);
    const archive = vi.spyOn(api, 'archive').mockResolvedValue({ ...shipped('merged'), archived: true });
    render(<TaskCard id="shipped" />);
    await userEvent.click(screen.getByRole('button', { name: 'Archive task shipped' }));
    expect(archive).toHaveBeenCalledWith('shipped');
    expect(deskStore.getState().openTaskId).toBeUndefined();
  });

  it('counts the feedback no pushed turn addressed, and says when a turn addresses it', () => {
    const feedback = {
      comments: [{ id: 'c1', author: 'a', body: 'b', url: 'u', createdAt: 't' }, { id: 'c2', author: 'a', body: 'b', url: 'u', createdAt: 't' }, { id: 'c3', author: 'a', body: 'b', url: 'u', createdAt: 't', addressedIn: 'abc' }],
      failedChecks: [{ name: 'test', url: 'u' }], unaddressed: 3,
    };
    seedDesk([summary('shipped', { status: 'completed', review: 'pending', pullRequest: { ...request, feedback } })]);
    const { unmount } = render(<TaskCard id="shipped" />);
    expect(within(screen.getByRole('article', { name: 'Task shipped' })).getByText('2 comments, 1 failed check')).toBeTruthy();
    unmount();
    resetDesk();
    seedDesk([summary('shipped', { status: 'in-progress', review: 'pending', pullRequest: { ...request, feedback, addressing: { commentIds: ['c1'], checks: [], auto: true, requestedAt: 't' } } })]);
    render(<TaskCard id="shipped" />);
    const card = screen.getByRole('article', { name: 'Task shipped' });
    expect(within(card).getByText('Addressing feedback (auto)')).toBeTruthy();
    expect(within(card).queryByText('2 comments, 1 failed check')).toBeNull();
  });
});
