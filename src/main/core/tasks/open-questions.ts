// Questions agents wait on, until a person answers: the first answer wins, a later one is refused.
import { randomUUID } from 'node:crypto';
import type { OpenQuestion, QuestionAnswer } from '../../../shared/questions';
import { alreadyAnswered, invalidAnswer, noOpenQuestion } from './task-errors';

export interface OpenQuestions {
  /** Opens a question; `answered` resolves with the first answer. */
  open(question: Omit<OpenQuestion, 'id' | 'askedAt'>, askedAt: string): { question: OpenQuestion; answered: Promise<QuestionAnswer> };
  /** Answers the task's question (`questionId` may be omitted when only one is open). */
  answer(taskId: string, questionId: string | undefined, answer: QuestionAnswer): OpenQuestion;
  forTask(taskId: string): OpenQuestion[];
  /** Answers every open question of the task with `cancelled` (the task stops). */
  cancelAll(taskId: string): OpenQuestion[];
}

export function createOpenQuestions(): OpenQuestions {
  const open = new Map<string, { question: OpenQuestion; resolve(answer: QuestionAnswer): void }>();
  const answered = new Set<string>();

  function settle(id: string, answer: QuestionAnswer): OpenQuestion {
    const entry = open.get(id) as { question: OpenQuestion; resolve(answer: QuestionAnswer): void };
    open.delete(id);
    answered.add(id);
    entry.resolve(answer);
    return entry.question;
  }

  return {
    open(fields, askedAt) {
      const question: OpenQuestion = { ...fields, id: randomUUID(), askedAt };
      let resolve: (answer: QuestionAnswer) => void = () => {};
      const answeredPromise = new Promise<QuestionAnswer>((r) => { resolve = r; });
      open.set(question.id, { question, resolve });
      return { question, answered: answeredPromise };
    },

    answer(taskId, questionId, answer) {
      if (questionId !== undefined && answered.has(questionId)) throw alreadyAnswered(`Question ${questionId} was already answered.`);
      const candidates = [...open.values()].filter((e) => e.question.taskId === taskId && (questionId === undefined || e.question.id === questionId));
      if (candidates.length === 0) throw noOpenQuestion(questionId === undefined ? `Task ${taskId} is not waiting for an answer.` : `Task ${taskId} has no open question ${questionId}.`);
      if (candidates.length > 1) throw invalidAnswer('Several questions are open: name one with questionId.');
      const { question } = candidates[0] as { question: OpenQuestion };
      checkAnswerFits(question, answer);
      return settle(question.id, answer);
    },

    forTask: (taskId) => [...open.values()].map((e) => e.question).filter((q) => q.taskId === taskId),

    cancelAll(taskId) {
      return [...open.values()].filter((e) => e.question.taskId === taskId).map((e) => settle(e.question.id, { cancelled: true }));
    },
  };
}

function checkAnswerFits(question: OpenQuestion, answer: QuestionAnswer): void {
  if (question.kind === 'permission') {
    if (!('optionId' in answer)) throw invalidAnswer('This question is answered with one of its options: send {"optionId"}.');
    if (!question.options?.some((o) => o.optionId === answer.optionId)) {
      throw invalidAnswer(`optionId: must be one of ${question.options?.map((o) => o.optionId).join(', ')}`);
    }
  } else if ('optionId' in answer) {
    throw invalidAnswer('This question is a form: send {"content": {...}} or {"declined": true}.');
  }
}
