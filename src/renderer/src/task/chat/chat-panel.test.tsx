// @vitest-environment happy-dom
// Answering the agent from the task's chat: a permission question's buttons, and an elicitation form that
// checks what was typed before it sends.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error';
import type { OpenQuestion } from '../../../../shared/questions';
import { deskStore } from '../../state/store';
import { detailOf, resetDesk, seedDesk } from '../../state/test-desk';
import { summary } from '../../state/test-events';
import { Notices } from '../../ui/notices';
import { ChatPanel } from './chat-panel';

const askedAt = '2025-01-01T10:00:06.000Z';
const permission: OpenQuestion = {
  id: 'perm-1', taskId: 'deps', kind: 'permission', prompt: 'Run `npm install left-pad`', askedAt,
  toolCall: { title: 'npm install left-pad' },
  options: [
    { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
  ],
};
const form: OpenQuestion = {
  id: 'form-1', taskId: 'deps', kind: 'elicitation', prompt: 'How should the release be cut?', askedAt,
  requestedSchema: {
    type: 'object',
    properties: {
      version: { type: 'string', title: 'Version' },
      retries: { type: 'integer', title: 'Retries', default: 2 },
      channel: { type: 'string', title: 'Channel', enum: ['stable', 'beta'] },
      dryRun: { type: 'boolean', title: 'Dry run' },
    },
    required: ['version', 'channel'],
  },
};

function seedQuestion(question: OpenQuestion) {
  const task = summary('deps', { title: 'Add left-pad', status: 'awaiting-input', openQuestions: [question] });
  const api = seedDesk([task]);
  const answer = vi.spyOn(api, 'answer').mockResolvedValue({ answered: question, task: { ...task, status: 'in-progress' } });
  render(<><ChatPanel taskId="deps" /><Notices /></>);
  return answer;
}

afterEach(resetDesk);

describe('permission question', () => {
  it('shows what the agent wants to do and answers with the option clicked', async () => {
    const answer = seedQuestion(permission);
    const question = screen.getByRole('group', { name: 'The agent asks permission' });
    expect(within(question).getByText('Run `npm install left-pad`')).toBeTruthy();
    expect(within(question).getByText('npm install left-pad')).toBeTruthy();
    await userEvent.click(within(question).getByRole('button', { name: 'Reject' }));
    expect(answer).toHaveBeenCalledWith('deps', { questionId: 'perm-1', optionId: 'reject-once' });
    expect(await screen.findByText('Answer sent; the agent goes on.')).toBeTruthy();
  });

  it('shows the desk’s refusal when the answer is not taken', async () => {
    const answer = seedQuestion(permission);
    answer.mockRejectedValue(new ApiError(409, 'conflict', 'Question perm-1 was answered already.'));
    await userEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Question perm-1 was answered already.');
  });
});

describe('what a permission question asks about', () => {
  const WT = '/data/worktrees/abc/deps-1';
  const ask = (toolCall: unknown): OpenQuestion => ({ ...permission, prompt: String((toolCall as { title?: string }).title ?? 'May I?'), toolCall });
  const withWorktree = () => deskStore.setState((state) => ({ details: { ...state.details, deps: detailOf(state.tasks.deps!, { worktreePath: WT }) } }));

  it('shows the command and the directory it runs in, relative to the worktree', () => {
    seedQuestion(ask({ title: 'npm test', kind: 'execute', rawInput: { command: 'npm test', cwd: `${WT}/packages/app` } }));
    withWorktree();
    const command = screen.getByRole('group', { name: 'Command to run' });
    expect(within(command).getByText('npm test')).toBeTruthy();
    expect(within(command).getByText('in packages/app')).toBeTruthy();
  });

  it("shows an edit's diff under its path relative to the worktree, and the title without the worktree", () => {
    seedQuestion(ask({ title: `Edit ${WT}/src/app.js`, kind: 'edit', rawInput: { file_path: `${WT}/src/app.js`, old_string: 'hello', new_string: 'goodbye' } }));
    withWorktree();
    const question = screen.getByRole('group', { name: 'The agent asks permission' });
    expect(within(question).getByText('Edit src/app.js')).toBeTruthy();
    const change = within(question).getByRole('group', { name: 'Proposed change' });
    expect(within(change).getByText('src/app.js')).toBeTruthy();
    expect(change.textContent).toContain('− hello');
    expect(change.textContent).toContain('+ goodbye');
  });

  it('keeps a path outside the worktree absolute', () => {
    seedQuestion(ask({ title: 'Edit /etc/hosts', kind: 'edit', rawInput: { file_path: '/etc/hosts', content: '0.0.0.0 example.com' } }));
    withWorktree();
    expect(within(screen.getByRole('group', { name: 'Proposed change' })).getByText('/etc/hosts')).toBeTruthy();
  });
});

describe('elicitation form', () => {
  it('sends nothing while a required field is empty', async () => {
    const answer = seedQuestion(form);
    await userEvent.type(screen.getByRole('textbox', { name: /Version/ }), '2.4.0');
    await userEvent.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(answer).not.toHaveBeenCalled();
    expect((screen.getByRole('combobox', { name: /Channel/ }) as HTMLSelectElement).validity.valueMissing).toBe(true);
  });

  it('sends what was filled in, numbers as numbers and checkboxes as booleans', async () => {
    const answer = seedQuestion(form);
    const dialog = screen.getByRole('form', { name: 'The agent asks a question' });
    expect(within(dialog).getByText('How should the release be cut?')).toBeTruthy();
    expect((within(dialog).getByRole('spinbutton', { name: 'Retries' }) as HTMLInputElement).value).toBe('2');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Version/ }), '2.4.0');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: /Channel/ }), 'beta');
    await userEvent.clear(within(dialog).getByRole('spinbutton', { name: 'Retries' }));
    await userEvent.type(within(dialog).getByRole('spinbutton', { name: 'Retries' }), '5');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Dry run' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send answer' }));
    expect(answer).toHaveBeenCalledWith('deps', {
      questionId: 'form-1', content: { version: '2.4.0', retries: 5, channel: 'beta', dryRun: true },
    });
  });

  it('declines without filling anything in', async () => {
    const answer = seedQuestion(form);
    await userEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(answer).toHaveBeenCalledWith('deps', { questionId: 'form-1', declined: true });
  });
});
