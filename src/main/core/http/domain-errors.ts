// Maps the core's domain errors to HTTP answers; anything unknown becomes a 500 without internals.
import { LoginRunningError, LoginUnavailableError, UnknownLoginError } from '../agents/agent-logins';
import { AgentProtocolError } from '../agents/agent-session';
import { MergeConflictError } from '../git/git-errors';
import { DirtyCheckoutError } from '../git/merge-into-base';
import { JsonRpcError } from '../../../shared/json-rpc-peer';
import { AlreadyAnsweredError, InvalidAnswerError, NoOpenQuestionError } from '../tasks/open-questions';
import { UnknownAgentError, CycleError, TaskBusyError, UnknownTaskError } from '../tasks/task-errors';
import {
  AlreadyAnsweredError as GovernanceAlreadyAnsweredError, GovernanceConflictError, RateLimitedError, UnknownGovernanceRequestError,
} from '../governance/governance-errors';
import { HttpError } from './http-error';

export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof UnknownTaskError) return new HttpError(404, 'not_found', error.message);
  if (error instanceof CycleError) return new HttpError(409, 'conflict', error.message, { cycle: error.cycle });
  if (error instanceof UnknownAgentError) return new HttpError(400, 'validation_error', `agent: ${error.message}`, { field: 'agent', known: error.known });
  if (error instanceof TaskBusyError || error instanceof AlreadyAnsweredError || error instanceof NoOpenQuestionError) {
    return new HttpError(409, 'conflict', error.message);
  }
  if (error instanceof DirtyCheckoutError) return new HttpError(409, 'conflict', error.message);
  if (error instanceof MergeConflictError) return new HttpError(409, 'conflict', error.message, { paths: error.paths });
  if (error instanceof UnknownLoginError) return new HttpError(404, 'not_found', error.message);
  if (error instanceof LoginUnavailableError || error instanceof LoginRunningError) return new HttpError(409, 'conflict', error.message);
  if (error instanceof InvalidAnswerError) return new HttpError(400, 'validation_error', error.message);
  if (error instanceof JsonRpcError || error instanceof AgentProtocolError) return new HttpError(409, 'conflict', `The agent refused: ${error.message}`);
  if (error instanceof UnknownGovernanceRequestError) return new HttpError(404, 'not_found', error.message);
  if (error instanceof GovernanceAlreadyAnsweredError) return new HttpError(409, 'conflict', error.message, { answeredBy: error.answeredBy });
  if (error instanceof GovernanceConflictError) return new HttpError(409, 'conflict', error.message);
  if (error instanceof RateLimitedError) {
    return new HttpError(429, 'too_many_requests', error.message, { retryAfterSeconds: error.retryAfterSeconds }, { 'Retry-After': String(error.retryAfterSeconds) });
  }
  return new HttpError(500, 'internal_error', 'Something went wrong inside Assignment Desk; see its log.');
}
