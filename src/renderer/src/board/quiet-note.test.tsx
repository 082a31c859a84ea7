// @vitest-environment happy-dom
// A card whose agent went quiet says for how long, with Cancel at hand; a card whose agent talks does not.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deskStore } from '../state/store';
import { resetDesk, seedDesk } from '../state/test-desk';
import { summary } from '../state/test-events';
import { formatQuiet } from './quiet-note';
import { TaskCard } from './task-card';

afterEach(resetDesk);

describe('a quiet agent on its card', () => {
  it('says "No word from the agent for 2m" and cancels the task from there', async () => {
    const quietSince = new Date(Date.now() - 125_000).toISOString();
    seedDesk([summary('slow', { title: 'Fix the build', status: 'in-progress', quietSince }), summary('busy', { status: 'in-progress' })]);
    const cancelTask = vi.fn(async () => true);
    deskStore.setState({ cancelTask });
    render(<><TaskCard id="slow" /><TaskCard id="busy" /></>);

    const card = screen.getByRole('article', { name: 'Task slow' });
    expect(within(card).getByRole('status').textContent).toContain('No word from the agent for 2m');
    await userEvent.click(within(card).getByRole('button', { name: 'Cancel task slow' }));
    expect(cancelTask).toHaveBeenCalledWith('slow');
    expect(within(screen.getByRole('article', { name: 'Task busy' })).queryByText(/No word from the agent/)).toBeNull();
  });

  it('counts seconds, then whole minutes, then hours', () => {
    expect(formatQuiet(45_000)).toBe('45s');
    expect(formatQuiet(125_000)).toBe('2m');
    expect(formatQuiet(3_900_000)).toBe('1h 5m');
  });
});
