// @vitest-environment happy-dom
// The review panel's pull request as a person uses it: open one with the defaults or the form's choices, see its link
// and state, refresh it, and read a forge's refusal in its own words.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PullRequest } from '../../../../shared/pull-request';
import { ApiError } from '../../api/api-error';
import { resetDesk, seedDesk } from '../../state/test-desk';
import { summary } from '../../state/test-events';
import { Notices } from '../../ui/notices';
import { PullRequestPanel } from './pull-request-panel';

const done = summary('done', { title: 'Add the invoices table', status: 'completed', review: 'pending' });
const opened: PullRequest = {
  forge: 'github', url: 'https://github.com/acme/widgets/pull/7', number: 7, state: 'open', draft: false, head: 'desk/done', base: 'main', checkedAt: '2026-01-01T00:00:00Z',
};

afterEach(resetDesk);

describe('pull request panel', () => {
  it('opens a pull request with the defaults in one click and shows its link and state', async () => {
    const api = seedDesk([done]);
    const open = vi.spyOn(api, 'openPullRequest').mockResolvedValue(opened);
    render(<><PullRequestPanel taskId="done" /><Notices /></>);
    await userEvent.click(screen.getByRole('button', { name: 'Open pull request' }));
    expect(open).toHaveBeenCalledWith('done', {});
    const panel = await screen.findByRole('region', { name: 'Pull request' });
    expect(within(panel).getByRole('link', { name: 'PR #7' }).getAttribute('href')).toBe(opened.url);
    expect(within(panel).getByText('open')).toBeTruthy();
  });

  it("sends the form's title, description, base and draft", async () => {
    const api = seedDesk([done]);
    const open = vi.spyOn(api, 'openPullRequest').mockResolvedValue({ ...opened, draft: true, base: 'release' });
    render(<PullRequestPanel taskId="done" />);
    await userEvent.click(screen.getByText('Options'));
    const form = screen.getByRole('form', { name: 'Pull request options' });
    await userEvent.type(within(form).getByLabelText('Title'), 'Invoices table');
    await userEvent.type(within(form).getByLabelText('Description'), 'Adds the table.');
    await userEvent.type(within(form).getByLabelText('Base branch'), 'release');
    await userEvent.click(within(form).getByLabelText('Draft'));
    await userEvent.click(within(form).getByRole('button', { name: 'Open with these options' }));
    expect(open).toHaveBeenCalledWith('done', { title: 'Invoices table', body: 'Adds the table.', base: 'release', draft: true });
    expect(await screen.findByText('draft')).toBeTruthy();
  });

  it("shows the forge's refusal in its own words and keeps the button", async () => {
    const api = seedDesk([done]);
    vi.spyOn(api, 'openPullRequest').mockRejectedValue(new ApiError(403, 'forbidden', 'GitHub answered 403: Resource not accessible by integration'));
    render(<><PullRequestPanel taskId="done" /><Notices /></>);
    await userEvent.click(screen.getByRole('button', { name: 'Open pull request' }));
    expect(await screen.findByText(/Resource not accessible by integration/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open pull request' })).toBeTruthy();
  });

  it('offers no pull request for a task that has not completed', () => {
    seedDesk([summary('busy', { status: 'in-progress' })]);
    render(<PullRequestPanel taskId="busy" />);
    expect(screen.queryByRole('button', { name: 'Open pull request' })).toBeNull();
  });

  it('refreshes a merge request and shows it merged', async () => {
    const api = seedDesk([{ ...done, pullRequest: { ...opened, forge: 'gitlab', number: 3, url: 'https://gitlab.com/acme/widgets/-/merge_requests/3' } }]);
    const refresh = vi.spyOn(api, 'refreshPullRequest').mockResolvedValue({ ...opened, forge: 'gitlab', number: 3, state: 'merged', checks: { state: 'success', total: 1, passed: 1, failed: 0 } });
    render(<PullRequestPanel taskId="done" />);
    const panel = screen.getByRole('region', { name: 'Merge request' });
    expect(within(panel).getByRole('link', { name: 'MR !3' })).toBeTruthy();
    await userEvent.click(within(panel).getByRole('button', { name: 'Refresh' }));
    expect(refresh).toHaveBeenCalledWith('done');
    expect(await within(panel).findByText('merged')).toBeTruthy();
    expect(within(panel).getByText('checks passed')).toBeTruthy();
  });
});
