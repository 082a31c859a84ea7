// @vitest-environment happy-dom
// Review shows a task's attempts side by side, and while the desk asks which to keep, "Keep attempt n" answers it.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OpenQuestion } from '../../../../shared/questions';
import { detailOf, resetDesk, seedDesk } from '../../state/test-desk';
import { deskStore } from '../../state/store';
import { summary } from '../../state/test-events';
import { AttemptsPanel } from './attempts-panel';

afterEach(resetDesk);

const question: OpenQuestion = {
  id: 'q1', taskId: 'pick', kind: 'permission', prompt: 'Which attempt do you keep?', askedAt: 't',
  options: [{ optionId: 'attempt-1', name: 'Attempt 1 (scripted)', kind: 'allow_once' }, { optionId: 'attempt-3', name: 'Attempt 3 (codex)', kind: 'allow_once' }],
};
const attemptsBrief = [
  { n: 1, agent: 'scripted', status: 'completed' as const, additions: 4, deletions: 1, check: 'failed' as const },
  { n: 2, agent: 'claude', status: 'error' as const },
  { n: 3, agent: 'codex', status: 'completed' as const, additions: 2, deletions: 0, check: 'passed' as const },
];

describe('the attempts in Review', () => {
  it('shows each attempt and keeps the one chosen by answering the desk\'s question', async () => {
    const api = seedDesk([summary('pick', { status: 'awaiting-input', attemptsBrief, openQuestions: [question] })]);
    const answer = vi.spyOn(api, 'answer').mockResolvedValue({ answered: question, task: summary('pick') });
    render(<AttemptsPanel taskId="pick" />);
    const panel = screen.getByRole('region', { name: 'Attempts' });
    expect(within(panel).getByRole('listitem', { name: 'Attempt 1' }).textContent).toContain('+4 −1');
    expect(within(panel).getByRole('listitem', { name: 'Attempt 3' }).textContent).toContain('passed');
    // Only completed attempts can be kept.
    expect(within(panel).queryByRole('button', { name: 'Keep attempt 2' })).toBeNull();
    await userEvent.click(within(panel).getByRole('button', { name: 'Keep attempt 3' }));
    expect(answer).toHaveBeenCalledWith('pick', { questionId: 'q1', optionId: 'attempt-3' });
    // The toast names the attempt kept.
    await vi.waitFor(() => expect(deskStore.getState().toasts.map((toast) => toast.text)).toContain('Kept attempt 3; the other attempts\' branches are archived.'));
  });

  it('shows each attempt\'s time and tokens once the task\'s detail is read', () => {
    seedDesk([summary('pick', { status: 'awaiting-input', attemptsBrief })]);
    deskStore.setState((state) => ({ details: { ...state.details, pick: detailOf(summary('pick'), { attempts: [
      { n: 1, agent: 'scripted', status: 'completed', branch: 'b1', filesChanged: 2, additions: 4, deletions: 1, workingMs: 65_000, tokens: 12_345 },
    ] }) } }));
    render(<AttemptsPanel taskId="pick" />);
    const first = screen.getByRole('listitem', { name: 'Attempt 1' }).textContent;
    expect(first).toContain('+4 −1 in 2 files');
    expect(first).toContain('1 min');
    expect(first).toContain('12,345');
  });

  it('says which attempt was kept and offers no choice once made', () => {
    seedDesk([summary('pick', { status: 'completed', attemptsBrief: attemptsBrief.map((a) => (a.n === 3 ? { ...a, chosen: true as const } : a)) })]);
    render(<AttemptsPanel taskId="pick" />);
    expect(screen.getByRole('listitem', { name: 'Attempt 3' }).textContent).toContain('Kept');
    expect(screen.queryByRole('button', { name: /Keep attempt/ })).toBeNull();
  });

  it('shows the judge\'s recommendation marked as the judge\'s, on the attempt it recommends too', () => {
    seedDesk([summary('pick', { status: 'awaiting-input', attemptsBrief, openQuestions: [question] })]);
    deskStore.setState((state) => ({ details: { ...state.details, pick: detailOf(summary('pick'), { judge: 'claude', recommendation: { n: 3, reason: 'it passes the check', by: 'claude' } }) } }));
    render(<AttemptsPanel taskId="pick" />);
    expect(screen.getByRole('note', { name: 'The judge\'s recommendation' }).textContent).toBe('Judge (claude) recommends attempt 3: it passes the check');
    expect(screen.getByRole('listitem', { name: 'Attempt 3' }).textContent).toContain('Judge\'s pick');
    expect(screen.getByRole('listitem', { name: 'Attempt 1' }).textContent).not.toContain('Judge\'s pick');
  });

  it('says why the judge recommended nothing', () => {
    seedDesk([summary('pick', { status: 'awaiting-input', attemptsBrief, openQuestions: [question] })]);
    deskStore.setState((state) => ({ details: { ...state.details, pick: detailOf(summary('pick'), { judge: 'claude', judgeNote: 'The judge (claude) named no attempt.' }) } }));
    render(<AttemptsPanel taskId="pick" />);
    expect(screen.getByRole('note', { name: 'The judge\'s recommendation' }).textContent).toBe('Judge: The judge (claude) named no attempt. The choice is yours.');
  });

  it('shows nothing for a task of one run', () => {
    seedDesk([summary('plain', { status: 'completed' })]);
    render(<AttemptsPanel taskId="plain" />);
    expect(screen.queryByRole('region', { name: 'Attempts' })).toBeNull();
  });
});
