// Maps the core's domain errors to HTTP answers; anything unknown becomes a 500 without internals.
import { UnknownAgentError, CycleError, UnknownTaskError } from '../tasks/task-errors';
import { HttpError } from './http-error';

export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof UnknownTaskError) return new HttpError(404, 'not_found', error.message);
  if (error instanceof CycleError) return new HttpError(409, 'conflict', error.message, { cycle: error.cycle });
  if (error instanceof UnknownAgentError) return new HttpError(400, 'validation_error', `agent: ${error.message}`, { field: 'agent', known: error.known });
  return new HttpError(500, 'internal_error', 'Something went wrong inside Assignment Desk; see its log.');
}
