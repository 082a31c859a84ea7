// The one mapping from the desk's errors to HTTP answers, for every protocol it speaks (AA, /api,
// /agent/*, Agent Protocol): the status comes from the error's kind, the body is
// `{error, code, message, details?}`; anything that is not a DeskError becomes a 500 without internals.
import { isDeskError, type DeskErrorKind } from '../../../shared/desk-error';
import { ERROR_WORD, HttpError } from './http-error';

const STATUS: Record<DeskErrorKind, number> = {
  invalid: 400,
  malformed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal: 500,
  unavailable: 503,
  /** A service the desk asked on the person's behalf (a forge) failed or could not be reached. */
  bad_gateway: 502,
};

/** `ap`: the Agent Protocol answers every body or query it cannot use (bad JSON, a wrong field) with 422. */
export type Protocol = 'desk' | 'ap';

/** The status a kind answers with in a protocol. */
export function statusOf(kind: DeskErrorKind, protocol: Protocol = 'desk'): number {
  if (protocol === 'ap' && (kind === 'invalid' || kind === 'malformed')) return 422;
  return STATUS[kind];
}

export function toHttpError(error: unknown, protocol: Protocol = 'desk'): HttpError {
  if (!isDeskError(error) || error.kind === 'internal') {
    return new HttpError(500, 'internal_error', 'Something went wrong inside Assignment Desk; see its log.', undefined, {}, 'internal');
  }
  // A route that named its status keeps it, unless the protocol answers that kind its own way.
  if (error instanceof HttpError && (protocol === 'desk' || statusOf(error.kind, protocol) === error.status)) return error;
  const status = statusOf(error.kind, protocol);
  return new HttpError(status, ERROR_WORD[error.kind], error.message, error.details, headersOf(error), error.code);
}

function headersOf(error: { kind: DeskErrorKind; details?: Record<string, unknown> }): Record<string, string> {
  const own = (error as { headers?: Record<string, string> }).headers ?? {};
  const retryAfter = error.details?.retryAfterSeconds;
  return error.kind === 'too_many_requests' && typeof retryAfter === 'number' ? { ...own, 'Retry-After': String(retryAfter) } : own;
}
