// The one mapping from DeskErrors to HTTP answers, as a client of any of the desk's protocols sees it.
import { describe, expect, it } from 'vitest';
import { DeskError } from '../../../shared/desk-error';
import { dependencyCycle, taskNotFound, unknownAgent } from '../tasks/task-errors';
import { rateLimited } from '../governance/governance-errors';
import { toHttpError } from './domain-errors';
import { HttpError } from './http-error';

describe('toHttpError', () => {
  it('answers with the status of the kind, the protocol word and the stable code', () => {
    const answer = toHttpError(taskNotFound('t1'));
    expect(answer.status).toBe(404);
    expect(answer.body()).toEqual({ error: 'not_found', code: 'task_not_found', message: 'No task with id "t1"', details: { taskId: 't1' } });
  });

  it('keeps the facts of a refusal, such as the cycle', () => {
    expect(toHttpError(dependencyCycle(['a', 'b', 'a'])).body()).toMatchObject({ error: 'conflict', code: 'dependency_cycle', details: { cycle: ['a', 'b', 'a'] } });
  });

  it('answers an invalid request 400 on the desk and 422 in the Agent Protocol', () => {
    expect(toHttpError(unknownAgent('x', ['scripted'])).status).toBe(400);
    expect(toHttpError(unknownAgent('x', ['scripted']), 'ap').status).toBe(422);
    expect(toHttpError(new HttpError(400, 'bad_request', 'not JSON'), 'ap')).toMatchObject({ status: 422, error: 'bad_request' });
  });

  it('tells a rate-limited agent when to ask again', () => {
    const answer = toHttpError(rateLimited('Too many requests.', 7));
    expect(answer.status).toBe(429);
    expect(answer.headers).toEqual({ 'Retry-After': '7' });
  });

  it('hides what went wrong inside, whatever was thrown', () => {
    for (const thrown of [new Error('secret path /home/x'), new DeskError('internal', 'git_failed', 'git failed in /home/x')]) {
      const answer = toHttpError(thrown);
      expect(answer.status).toBe(500);
      expect(JSON.stringify(answer.body())).not.toContain('/home/x');
    }
  });
});
