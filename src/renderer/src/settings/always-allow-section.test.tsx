// @vitest-environment happy-dom
// The "Always allow" answers in Settings: each is listed with its task, agent and capability; "Make it a rule" asks the
// desk to allow that capability for that agent, and the list then says the policy allows it.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AlwaysAllowAnswer } from '../../../shared/always-allow';
import type { PolicyView } from '../../../shared/governance';
import { deskStore } from '../state/store';
import { resetDesk, seedDesk } from '../state/test-desk';
import { AlwaysAllowSection } from './always-allow-section';

const answer: AlwaysAllowAnswer = { taskId: 'fix-login', agent: 'claude-code-acp', capability: 'execute', requestId: 'r1', grantedAt: '2026-11-28T09:00:00.000Z', isRule: false };
const ruled: PolicyView = { policy: { version: 1, defaults: { capabilities: {}, allowedPaths: ['**'], deniedCommands: [], requestsPerMinute: 60, sandbox: 'auto', readablePaths: [], hiddenPaths: [] }, agents: { 'claude-code-acp': { capabilities: { execute: 'allow' } } }, attentionGlobs: [] }, agentsWithTokens: [] };

afterEach(resetDesk);

describe('always-allow answers in Settings', () => {
  it('says there are none yet', () => {
    seedDesk([]);
    deskStore.setState({ alwaysAllow: [] });
    render(<AlwaysAllowSection />);
    expect(screen.getByText('None yet.')).toBeTruthy();
  });

  it('makes an answer a rule from the keyboard, and then shows the policy allows it', async () => {
    const api = seedDesk([]);
    deskStore.setState({ alwaysAllow: [answer] });
    const made = vi.spyOn(api, 'makeAlwaysAllowRule').mockResolvedValue(ruled);
    vi.spyOn(api, 'alwaysAllowAnswers').mockResolvedValue({ answers: [{ ...answer, isRule: true }] });
    render(<AlwaysAllowSection />);
    expect(screen.getByRole('list', { name: 'Always-allow answers' }).textContent).toContain('execute for claude-code-acp in task fix-login');

    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Make it a rule: allow execute for claude-code-acp' }));
    await userEvent.keyboard('{Enter}');
    expect(made).toHaveBeenCalledWith({ agent: 'claude-code-acp', capability: 'execute' });
    expect(await screen.findByText('Allowed by the policy')).toBeTruthy();
    expect(deskStore.getState().policy).toEqual(ruled);
  });

  it('shows why the desk refused', async () => {
    const api = seedDesk([]);
    deskStore.setState({ alwaysAllow: [answer] });
    vi.spyOn(api, 'makeAlwaysAllowRule').mockRejectedValue(new Error('The policy file cannot be written.'));
    render(<AlwaysAllowSection />);
    await userEvent.click(screen.getByRole('button', { name: /Make it a rule/ }));
    expect((await screen.findByRole('alert')).textContent).toContain('The policy file cannot be written.');
  });
});
