import { describe, expect, it } from 'vitest';
import { createOpenQuestions } from './open-questions';

const permission = { taskId: 't', kind: 'permission' as const, prompt: 'Delete it?', options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' }] };
const form = { taskId: 't', kind: 'elicitation' as const, prompt: 'Which colour?', requestedSchema: { type: 'object' } };

describe('open questions', () => {
  it('hands the first answer to the waiting agent and refuses later ones', async () => {
    const questions = createOpenQuestions();
    const { question, answered } = questions.open(permission, 'now');
    expect(questions.forTask('t')).toEqual([question]);
    questions.answer('t', question.id, { optionId: 'allow' });
    await expect(answered).resolves.toEqual({ optionId: 'allow' });
    expect(questions.forTask('t')).toEqual([]);
    expect(() => questions.answer('t', question.id, { optionId: 'reject' })).toThrow(expect.objectContaining({ code: 'already_answered' }));
  });

  it('answers the only open question when no id is given', async () => {
    const questions = createOpenQuestions();
    const { answered } = questions.open(form, 'now');
    questions.answer('t', undefined, { content: { colour: 'blue' } });
    await expect(answered).resolves.toEqual({ content: { colour: 'blue' } });
  });

  it('says when nothing is open, and asks for an id when several are', () => {
    const questions = createOpenQuestions();
    expect(() => questions.answer('t', undefined, { optionId: 'allow' })).toThrow(expect.objectContaining({ code: 'no_open_question' }));
    questions.open(form, 'now');
    questions.open(form, 'now');
    expect(() => questions.answer('t', undefined, { declined: true })).toThrow(/name one with questionId/);
  });

  it('refuses an answer that does not fit the question', () => {
    const questions = createOpenQuestions();
    const { question } = questions.open(permission, 'now');
    expect(() => questions.answer('t', question.id, { optionId: 'maybe' })).toThrow(expect.objectContaining({ code: 'invalid_answer' }));
    expect(() => questions.answer('t', question.id, { content: {} })).toThrow(/one of its options/);
    const { question: asked } = questions.open({ ...form, taskId: 'u' }, 'now');
    expect(() => questions.answer('u', asked.id, { optionId: 'allow' })).toThrow(/is a form/);
  });

  it('answers every open question of a cancelled task with cancelled', async () => {
    const questions = createOpenQuestions();
    const { answered } = questions.open(permission, 'now');
    questions.open({ ...form, taskId: 'other' }, 'now');
    expect(questions.cancelAll('t')).toHaveLength(1);
    await expect(answered).resolves.toEqual({ cancelled: true });
    expect(questions.forTask('other')).toHaveLength(1);
  });
});
