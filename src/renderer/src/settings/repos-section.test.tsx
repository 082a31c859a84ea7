// @vitest-environment happy-dom
// Settings → Repositories: a repository without .desk/config.json gets its prepare command from here.
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { RepoInfo } from '../../../shared/repos';
import { deskStore } from '../state/store';
import { resetDesk, seedDesk } from '../state/test-desk';
import { ReposSection } from './repos-section';

afterEach(resetDesk);

const repo: RepoInfo = {
  name: 'app', path: '/home/me/app', isDefault: true, baseBranch: 'main', endpoint: '/',
  setup: { source: 'settings', settings: { copy: ['.env'], prepare: 'npm ci', prepareWhen: ['package-lock.json'] } },
};

it('shows and saves the prepare command and the globs that make it run again', async () => {
  const api = seedDesk([]);
  vi.spyOn(api, 'repos').mockResolvedValue({ repos: [repo] });
  const saved = vi.spyOn(api, 'setRepoSetup').mockResolvedValue(repo);
  deskStore.setState({ repos: [repo] });
  render(<ReposSection />);
  const prepare = await screen.findByLabelText(/Prepare command/);
  expect((prepare as HTMLInputElement).value).toBe('npm ci');
  const when = screen.getByLabelText(/Prepare again when these change/);
  expect((when as HTMLTextAreaElement).value).toBe('package-lock.json');
  fireEvent.change(prepare, { target: { value: 'pnpm install --frozen-lockfile' } });
  fireEvent.change(when, { target: { value: 'pnpm-lock.yaml\n  \n.npmrc' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save setup of app' }));
  await vi.waitFor(() => expect(saved).toHaveBeenCalled());
  expect(saved.mock.calls[0]?.[1]).toMatchObject({ copy: ['.env'], prepare: 'pnpm install --frozen-lockfile', prepareWhen: ['pnpm-lock.yaml', '.npmrc'] });
});
