// What governance refuses, as DeskErrors; the HTTP layer maps each kind to a status.
import { DeskError } from '../../../shared/desk-error';
import { alreadyAnswered } from '../tasks/task-errors';

export const governanceRequestNotFound = (requestId: string) =>
  new DeskError('not_found', 'governance_request_not_found', `No governance request with id "${requestId}"`, { requestId });

/** A person (or the task that asked) already answered; the first answer wins. */
export const requestAlreadyAnswered = (requestId: string, answeredBy: string | undefined) =>
  alreadyAnswered(`Request ${requestId} is already answered${answeredBy ? ` by ${answeredBy}` : ''}.`, { answeredBy });

/** The request is in a state that does not allow what was asked (e.g. answering one the policy decided). */
export const governanceConflict = (message: string) => new DeskError('conflict', 'governance_conflict', message);

/** An agent asked too often; `retryAfterSeconds` says when it may ask again (and becomes a Retry-After header). */
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new DeskError('too_many_requests', 'rate_limited', message, { retryAfterSeconds });

/** policy.json cannot be read or is not a valid policy; the message names the file and the field. */
export const policyFileInvalid = (message: string) => new DeskError('invalid', 'policy_file_invalid', message);
