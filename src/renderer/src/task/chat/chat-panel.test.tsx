// @vitest-environment happy-dom
// Answering the agent from the task's chat: a permission question's buttons, and an elicitation form that
// checks what was typed before it sends.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error';
import type { OpenQuestion } from '../../../../shared/questions';
import { resetDesk, seedDesk } from '../../state/test-desk';
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
