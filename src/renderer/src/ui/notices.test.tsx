// @vitest-environment happy-dom
// Toasts as a person sees them: at most three, each leaving by itself after a few seconds (errors too), except one
// that carries an action.
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { desk } from '../state/store';
import { resetDesk } from '../state/test-desk';
import { Notices } from './notices';
import { pushToast } from './toasts';

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => {
  vi.useRealTimers();
  resetDesk();
});

const texts = () => [...screen.queryAllByRole('status'), ...screen.queryAllByRole('alert')].map((node) => node.textContent);

describe('toasts', () => {
  it('stacks at most three, the oldest leaving first', () => {
    render(<Notices />);
    act(() => { for (const n of [1, 2, 3, 4, 5]) desk().showStatus(`Task t${n} was submitted.`); });
    expect(texts()).toEqual(['Task t3 was submitted.', 'Task t4 was submitted.', 'Task t5 was submitted.']);
  });

  it('shows the same message once', () => {
    expect(pushToast([{ id: 1, kind: 'alert', text: 'Offline' }], { id: 2, kind: 'alert', text: 'Offline' })).toEqual([{ id: 2, kind: 'alert', text: 'Offline' }]);
  });

  it('lets statuses and errors leave by themselves after a few seconds', () => {
    render(<Notices />);
    act(() => {
      desk().showStatus('Approved a1.');
      desk().showAlert('Cannot reach the desk.');
    });
    expect(screen.getByRole('alert').textContent).toBe('Cannot reach the desk.');
    act(() => { vi.advanceTimersByTime(5500); });
    expect(texts()).toEqual(['Cannot reach the desk.']);
    act(() => { vi.advanceTimersByTime(3000); });
    expect(texts()).toEqual([]);
  });

  it('keeps an error that carries an action until the person acts on it', () => {
    const retry = vi.fn();
    render(<Notices />);
    act(() => desk().showAlert('The approval failed.', { label: 'Retry', run: retry }));
    act(() => { vi.advanceTimersByTime(60_000); });
    expect(screen.getByRole('alert').textContent).toBe('The approval failed.');
    act(() => screen.getByRole('button', { name: 'Retry' }).click());
    expect(retry).toHaveBeenCalledOnce();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('can be dismissed at once', () => {
    render(<Notices />);
    act(() => desk().showStatus('Archived a1.'));
    act(() => screen.getByRole('button', { name: 'Dismiss' }).click());
    expect(texts()).toEqual([]);
  });
});
