// @vitest-environment happy-dom
// Review shows the repository's check on the task's work: passed or failed with its exit code, and its output's end.
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { resetDesk, seedDesk } from '../../state/test-desk';
import { summary } from '../../state/test-events';
import { CheckPanel } from './check-panel';

afterEach(resetDesk);

describe('the check in Review', () => {
  it('says a check failed, with its exit code, time and the end of its output', () => {
    seedDesk([summary('red', { status: 'completed', review: 'pending', check: { status: 'failed', exitCode: 3, durationMs: 2400, outputTail: '1 test failing\n' } })]);
    render(<CheckPanel taskId="red" />);
    const panel = screen.getByRole('region', { name: 'Check' });
    expect(panel.textContent).toContain('Check failed (exit code 3) in 2.4 s');
    expect(within(panel).getByLabelText('Check output').textContent).toContain('1 test failing');
  });

  it('says a check passed', () => {
    seedDesk([summary('green', { status: 'completed', review: 'pending', check: { status: 'passed', exitCode: 0, durationMs: 40, outputTail: '' } })]);
    render(<CheckPanel taskId="green" />);
    expect(screen.getByRole('region', { name: 'Check' }).textContent).toBe('Check passed in 40 ms');
  });

  it('shows nothing for a task whose repository has no check', () => {
    seedDesk([summary('plain', { status: 'completed', review: 'pending' })]);
    render(<CheckPanel taskId="plain" />);
    expect(screen.queryByRole('region', { name: 'Check' })).toBeNull();
  });
});
