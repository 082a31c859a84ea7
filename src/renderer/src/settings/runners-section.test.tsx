// @vitest-environment happy-dom
// Settings → Runners: each runner's state, as the desk reports it.
import { render, screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { resetDesk, seedDesk } from '../state/test-desk';
import { RunnersSection } from './runners-section';

afterEach(resetDesk);

it('lists each runner with its load, and says why one cannot be used', async () => {
  const api = seedDesk([]);
  vi.spyOn(api, 'runners').mockResolvedValue({
    runners: [
      { kind: 'local', available: true, detail: 'This machine, sandboxed (bubblewrap 0.8.0)', capacity: 2, running: 1, isDefault: true },
      { kind: 'docker', available: false, detail: 'Docker at unix:///var/run/docker.sock cannot be reached: connect ENOENT', capacity: 4, running: 0, isDefault: false },
    ],
  });
  render(<RunnersSection />);
  const local = await screen.findByRole('listitem', { name: 'Runner local' });
  expect(local.textContent).toContain('This machine');
  expect(local.textContent).toContain('(default)');
  expect(local.textContent).toContain('1 of 2 running');
  const docker = screen.getByRole('listitem', { name: 'Runner docker' });
  expect(docker.textContent).toContain('unavailable');
  expect(within(docker).getByText(/cannot be reached/)).toBeTruthy();
});
