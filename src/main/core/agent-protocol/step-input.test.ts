// What a step POST means: report, answer the open question, or follow up, and when it is refused.
import { describe, expect, it } from 'vitest';
import type { OpenQuestion } from '../../../shared/questions';
import { decideStep, howToAnswer, type StepSituation } from './step-input';

const at = '2025-01-01T00:00:00.000Z';
const permission: OpenQuestion = {
  id: 'p1', taskId: 't', kind: 'permission', prompt: 'May I?', askedAt: at,
  options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' }],
};
const form: OpenQuestion = {
  id: 'f1', taskId: 't', kind: 'elicitation', prompt: 'Colour?', askedAt: at,
  requestedSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
};
const twoFields: OpenQuestion = { ...form, id: 'f2', requestedSchema: { type: 'object', properties: { a: {}, b: {} } } };
const finished: StepSituation = { taskId: 't', status: 'completed', taskInput: 'do it', turns: 1, queued: 0, openQuestions: [] };
const working: StepSituation = { ...finished, status: 'in-progress' };
const waitingOn = (...openQuestions: OpenQuestion[]): StepSituation => ({ ...finished, status: 'awaiting-input', openQuestions });

describe('a step while the agent waits on a permission', () => {
  it('answers with the option the input names by id, by name or with y/n', () => {
    expect(decideStep(waitingOn(permission), { input: 'reject' })).toEqual({ kind: 'answer', answer: { questionId: 'p1', optionId: 'reject' } });
    expect(decideStep(waitingOn(permission), { input: ' allow ' })).toEqual({ kind: 'answer', answer: { questionId: 'p1', optionId: 'allow' } });
    expect(decideStep(waitingOn(permission), { input: 'ALLOW' })).toMatchObject({ answer: { optionId: 'allow' } });
    expect(decideStep(waitingOn(permission), { input: 'y' })).toMatchObject({ answer: { optionId: 'allow' } });
    expect(decideStep(waitingOn(permission), { input: 'No' })).toMatchObject({ answer: { optionId: 'reject' } });
  });

  it('refuses input that names no option, or a decline, saying which options there are', () => {
    expect(() => decideStep(waitingOn(permission), { input: 'maybe' })).toThrow(expect.objectContaining({ code: 'invalid_step_input' }));
    expect(() => decideStep(waitingOn(permission), { additional_input: { declined: true } })).toThrow(/"allow" \(Allow\), "reject" \(Reject\)/);
  });

  it('reports the waiting step when the step says nothing', () => {
    expect(decideStep(waitingOn(permission), {})).toEqual({ kind: 'report' });
    expect(decideStep(waitingOn(permission), { input: '  ', additional_input: null })).toEqual({ kind: 'report' });
  });
});

describe('a step while the agent waits on a form', () => {
  it('fills a one-field form with the input text', () => {
    expect(decideStep(waitingOn(form), { input: 'blue' })).toEqual({ kind: 'answer', answer: { questionId: 'f1', content: { answer: 'blue' } } });
  });

  it('takes any form from additional_input.answer, and a decline', () => {
    expect(decideStep(waitingOn(twoFields), { additional_input: { answer: { a: 1, b: 2 } } })).toMatchObject({ answer: { content: { a: 1, b: 2 } } });
    expect(decideStep(waitingOn(form), { additional_input: { declined: true } })).toMatchObject({ answer: { declined: true } });
  });

  it('refuses plain text for a form with several fields', () => {
    expect(() => decideStep(waitingOn(twoFields), { input: 'x' })).toThrow(/additional_input/);
  });

  it('needs question_id when several questions are open, and refuses one that is not open', () => {
    expect(() => decideStep(waitingOn(permission, form), { input: 'y' })).toThrow(/Several questions/);
    expect(decideStep(waitingOn(permission, form), { input: 'red', additional_input: { question_id: 'f1' } })).toMatchObject({ answer: { questionId: 'f1' } });
    expect(() => decideStep(waitingOn(form), { input: 'x', additional_input: { question_id: 'gone' } })).toThrow(/no open question gone/);
  });
});

describe('a step with nothing to answer', () => {
  it('is a follow-up once the run is over', () => {
    expect(decideStep(finished, { input: 'and now the tests' })).toEqual({ kind: 'follow-up', prompt: 'and now the tests' });
    expect(decideStep({ ...finished, status: 'error' }, { input: 'try again' })).toMatchObject({ kind: 'follow-up' });
  });

  it('reports the latest step when it has no input', () => {
    expect(decideStep(working, {})).toEqual({ kind: 'report' });
    expect(decideStep(finished, { input: null })).toEqual({ kind: 'report' });
  });

  it('reports the first step when it repeats the task input before any follow-up', () => {
    expect(decideStep(working, { input: 'do it' })).toEqual({ kind: 'report' });
    expect(decideStep({ ...working, status: 'queued' }, { input: ' do it ' })).toEqual({ kind: 'report' });
  });

  it('queues any other input while the agent works, and behind steps already queued', () => {
    expect(decideStep(working, { input: 'something else' })).toEqual({ kind: 'queue', prompt: 'something else' });
    expect(decideStep({ ...working, turns: 2 }, { input: 'do it' })).toMatchObject({ kind: 'queue' });
    expect(decideStep({ ...working, queued: 1 }, { input: 'do it' })).toMatchObject({ kind: 'queue' });
    expect(decideStep({ ...working, status: 'queued' }, { input: 'more' })).toMatchObject({ kind: 'queue' });
    expect(decideStep({ ...finished, queued: 2 }, { input: 'last' })).toEqual({ kind: 'queue', prompt: 'last' });
  });

  it('refuses an answer when no question is open', () => {
    expect(() => decideStep(finished, { additional_input: { answer: { answer: 'x' } } })).toThrow(expect.objectContaining({ code: 'no_open_question' }));
  });
});

describe('how to answer', () => {
  it('names the options of a permission and the field of a one-field form', () => {
    expect(howToAnswer(permission)).toContain('"allow" (Allow), "reject" (Reject)');
    expect(howToAnswer(form)).toContain('to fill "answer"');
    expect(howToAnswer(twoFields)).not.toContain('to fill');
  });
});
