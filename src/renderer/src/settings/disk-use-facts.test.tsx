// @vitest-environment happy-dom
// Settings → This desk → Disk: what snapshots and task layers take, as the desk measures it.
import { render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { resetDesk, seedDesk } from '../state/test-desk';
import { DiskUseFacts } from './disk-use-facts';

afterEach(resetDesk);

it('shows how many snapshots there are and what they and the task layers take', async () => {
  const api = seedDesk([]);
  vi.spyOn(api, 'diskUse').mockResolvedValue({ snapshots: 2, snapshotsBytes: 250 * 1024 * 1024, layersBytes: 3 * 1024 * 1024 + 200 * 1024, totalBytes: 0 });
  render(<dl><DiskUseFacts /></dl>);
  const line = await screen.findByLabelText('Disk use of snapshots and task layers');
  expect(line.textContent).toBe('2 snapshots: 250 MB; task layers: 3.2 MB');
});

it('says what new worktrees are, and why they are checkouts where layers cannot be used', async () => {
  const api = seedDesk([]);
  vi.spyOn(api, 'diskUse').mockResolvedValue({ snapshots: 0, snapshotsBytes: 0, layersBytes: 0, totalBytes: 0, worktrees: { kind: 'checkouts', reason: 'overlays are refused' } });
  render(<dl><DiskUseFacts /></dl>);
  const line = await screen.findByLabelText('What new worktrees are');
  expect(line.textContent).toBe('Checkouts of their own: layers cannot be used here (overlays are refused)');
});
