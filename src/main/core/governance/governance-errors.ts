// Domain errors of governance; the HTTP layer maps each one to a status.

export class UnknownGovernanceRequestError extends Error {
  readonly code = 'unknown_governance_request';
  constructor(readonly requestId: string) {
    super(`No governance request with id "${requestId}"`);
  }
}

/** A person (or the task that asked) already answered; the first answer wins. */
export class AlreadyAnsweredError extends Error {
  readonly code = 'already_answered';
  constructor(readonly requestId: string, readonly answeredBy: string | undefined) {
    super(`Request ${requestId} is already answered${answeredBy ? ` by ${answeredBy}` : ''}.`);
  }
}

/** The request is in a state that does not allow what was asked (e.g. answering one the policy decided). */
export class GovernanceConflictError extends Error {
  readonly code = 'governance_conflict';
}

/** An agent asked too often; `retryAfterSeconds` says when it may ask again. */
export class RateLimitedError extends Error {
  readonly code = 'rate_limited';
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(message);
  }
}

/** policy.json cannot be read or is not a valid policy; the message names the file and the field. */
export class PolicyFileError extends Error {
  readonly code = 'policy_file_invalid';
}
