// @vitest-environment happy-dom
// The card says where a task's agent runs when that is not this machine.
import { render, screen, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { resetDesk, seedDesk } from '../state/test-desk';
import { summary } from '../state/test-events';
import { TaskCard } from './task-card';

afterEach(resetDesk);

it('shows the runner of a task that runs in a container, and nothing for one on this machine', () => {
  seedDesk([summary('boxed', { title: 'Build in the toolchain image', runner: 'docker' }), summary('here', { title: 'Fix a typo' })]);
  render(<><TaskCard id="boxed" /><TaskCard id="here" /></>);
  const boxed = within(screen.getByRole('article', { name: 'Task boxed' })).getByText('docker');
  expect(boxed.getAttribute('title')).toMatch(/docker runner/);
  expect(within(screen.getByRole('article', { name: 'Task here' })).queryByText(/docker|cluster|local/)).toBeNull();
});
