// @vitest-environment happy-dom
// A card of a task with attempts shows each in brief: agent, status, +/−, check, and which was kept.
import { render, screen, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { resetDesk, seedDesk } from '../state/test-desk';
import { summary } from '../state/test-events';
import { TaskCard } from './task-card';

afterEach(resetDesk);

it('lists each attempt on the card in one line', () => {
  seedDesk([summary('pick', { status: 'completed', attemptsBrief: [
    { n: 1, agent: 'scripted', status: 'completed', additions: 4, deletions: 1, check: 'failed' },
    { n: 2, agent: 'codex', status: 'completed', additions: 2, deletions: 0, check: 'passed', chosen: true },
  ] })]);
  render(<TaskCard id="pick" />);
  const list = within(screen.getByRole('article', { name: 'Task pick' })).getByRole('list', { name: 'Attempts' });
  expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
    '#1 scripted · Completed · +4 −1 · check failed',
    '#2 codex · Completed · +2 −0 · check passed · kept',
  ]);
});
